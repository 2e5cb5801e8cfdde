"""The bundle driver's journal.jsonl (docs/run-anywhere.md): what has run, and the records it appends.

One "driver" record per driver session (the machine it ran on: ingest reads the machine from here and refuses
mixed ones) and one "process" record per cell process (the fields of src/records/outcome.ts `Exit`).
The bundle's driver.py loads this module from the bundle's harness. Standard library only, Python >= 3.8.
"""

import datetime
import json
import os
import platform
import socket


def now_iso():
    """UTC time like JavaScript's toISOString()."""
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def done_keys(journal):
    """Keys of the processes already journaled; a torn last line (a killed driver) is ignored."""
    keys = set()
    if not os.path.exists(journal):
        return keys
    with open(journal, encoding="utf-8") as f:
        for line in f:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("type") == "process":
                keys.add(record.get("key"))
    return keys


def append(journal, record):
    """One line per record, written with a single call and flushed to disk."""
    line = json.dumps(record, sort_keys=True) + "\n"
    with open(journal, "a", encoding="utf-8") as f:
        f.write(line)
        f.flush()
        os.fsync(f.fileno())


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None


def pinned_cpus():
    """The cores this driver (and so each cell process) may use, when that is fewer than the machine has."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
    except AttributeError:
        return None
    return cpus if len(cpus) < (os.cpu_count() or 0) else None


def slurm_info():
    env = os.environ
    if "SLURM_JOB_ID" not in env:
        return None
    return {
        "job_id": env.get("SLURM_JOB_ID"),
        "array_job_id": env.get("SLURM_ARRAY_JOB_ID"),
        "array_task_id": env.get("SLURM_ARRAY_TASK_ID"),
        "node": env.get("SLURMD_NODENAME"),
    }


def driver_record(manifest, interpreters):
    """What this driver session ran on: ingest reads the machine from here, and refuses mixed ones."""
    try:
        load = round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        load = None
    return {
        "type": "driver",
        "v": 1,
        "started": now_iso(),
        "spec_digest": manifest["spec"]["digest"],
        "shard": manifest.get("shard"),
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model(),
        "load_average_1m": load,
        "cpus": pinned_cpus(),
        "python": platform.python_version(),
        "interpreters": interpreters,
        "slurm": slurm_info(),
    }


def process_record(job, started, wall, exit_info):
    """One cell process as it ran: `benchgrid ingest` classifies it from this and its result file."""
    return {
        "type": "process",
        "key": job["key"],
        "cell": job["cell"],
        "kind": job["kind"],
        "index": job["index"],
        "started": started,
        "wall_s": wall,
        "cpus": pinned_cpus(),
        "start": "cold",
        "exit": exit_info,
    }
