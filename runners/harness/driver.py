"""Run every cell process of a benchgrid bundle, without Node (docs/run-anywhere.md).

Usage: python driver.py [BUNDLE_DIR] [--python PATH] [--env-python ENV=PATH ...]

`benchgrid export` copies this file into a bundle as `driver.py`. For each job of `bundle.json` not yet in
`journal.jsonl` it starts a fresh `<python> -m benchgrid_harness --request R --result S` through the
bundle's harness/benchgrid_harness/launch.py, the module `benchgrid run` starts its processes with (the
allow-listed environment, time limit and process-tree kill), and appends one journal line with what it
saw of the process (the fields of src/records/outcome.ts `Exit`). `benchgrid ingest` classifies each process
from that line and its result file.
Resumable: run it again and only the jobs missing from the journal run. --setup-env is benchgrid_harness/bundle_env.py
and the journal's records are benchgrid_harness/bundle_journal.py, both loaded from the bundle's harness.
Standard library only, Python >= 3.8.
"""

import argparse
import json
import os
import shutil
import signal
import sys
import time

BUNDLE_FORMAT = 1
JOURNAL = "journal.jsonl"


class BundleError(Exception):
    """The bundle cannot be run as it is (exit 2)."""


class Stop(Exception):
    """SIGINT or SIGTERM: stop after killing the running process; what finished is kept."""

    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def load_bundle(bundle):
    """bundle.json, checked for the fields this driver reads."""
    path = os.path.join(bundle, "bundle.json")
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
    except OSError as exc:
        raise BundleError(f"cannot read {path}: {exc.strerror}; give the bundle directory `benchgrid export` wrote")
    except ValueError as exc:
        raise BundleError(f"{path} is not valid JSON ({exc})")
    if not isinstance(manifest, dict) or manifest.get("format") != BUNDLE_FORMAT:
        got = manifest.get("format") if isinstance(manifest, dict) else type(manifest).__name__
        raise BundleError(f"{path}: bundle format {got!r}, but this driver reads format {BUNDLE_FORMAT}")
    jobs = manifest.get("jobs")
    if not isinstance(jobs, list):
        raise BundleError(f"{path}: no 'jobs' list")
    for i, job in enumerate(jobs):
        if not isinstance(job, dict):
            raise BundleError(f"{path}: jobs[{i}] is not an object")
        missing = [
            k
            for k in (
                "key",
                "cell",
                "kind",
                "index",
                "environment",
                "request",
                "result",
                "stdout",
                "stderr",
                "timeout_s",
                "threads",
                "pythonpath",
            )
            if k not in job
        ]
        if missing:
            raise BundleError(f"{path}: jobs[{i}] lacks {', '.join(missing)}")
        for field in ("request", "result", "stdout", "stderr"):
            check_inside(bundle, job[field], f"{path}: jobs[{i}].{field}")
        for k, entry in enumerate(job["pythonpath"] if isinstance(job["pythonpath"], list) else [None]):
            check_inside(bundle, entry, f"{path}: jobs[{i}].pythonpath[{k}]")
    return manifest


def check_inside(bundle, rel, where):
    """A path from bundle.json must name a place inside the bundle: this driver deletes and truncates
    result and log files, so a hostile manifest must not reach files elsewhere."""
    if not isinstance(rel, str) or not rel or os.path.isabs(rel) or any(ord(c) < 32 for c in rel):
        raise BundleError(f"{where}: expected a relative path inside the bundle (got {rel!r})")
    root = os.path.realpath(bundle)
    full = os.path.realpath(os.path.join(bundle, rel))
    if os.path.commonpath([root, full]) != root:
        raise BundleError(f"{where}: {rel!r} leads outside the bundle; refusing to touch it")


def load_harness(bundle):
    """The bundle's harness/benchgrid_harness: launch.py, how every cell process starts, here as in `benchgrid run`,
    and bundle_journal.py, what the journal holds."""
    harness = os.path.join(bundle, "harness")
    if not os.path.isfile(os.path.join(harness, "benchgrid_harness", "launch.py")):
        raise BundleError(f"{harness}: no benchgrid_harness/launch.py; export the bundle again with this benchgrid")
    sys.path.insert(0, harness)
    try:
        from benchgrid_harness import bundle_journal, launch
    except (ImportError, ValueError, OSError) as exc:
        raise BundleError(f"{harness}: the harness cannot be loaded ({exc}); export the bundle again")
    return launch, bundle_journal


def run_job(launch, bundle, job, python):
    """Runs one cell process with a fresh result file and scratch TMPDIR; returns its exit info."""
    result = os.path.join(bundle, job["result"])
    request = os.path.join(bundle, job["request"])
    command = {
        "python": python,
        "cwd": bundle,
        "argv": ["-m", "benchgrid_harness", "--request", request, "--result", result],
        "pythonpath": [os.path.join(bundle, p) for p in job["pythonpath"]],
        "threads": job["threads"],
        "stdout": os.path.join(bundle, job["stdout"]),
        "stderr": os.path.join(bundle, job["stderr"]),
        "cpus": None,
        "timeout_s": job["timeout_s"],
        "tmpdir": os.path.join(bundle, "work", job["result"].replace(os.sep, "__") + ".tmp"),
    }
    for path in (result, command["stdout"], command["stderr"], command["tmpdir"]):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(result):
        os.unlink(result)
    shutil.rmtree(command["tmpdir"], ignore_errors=True)
    os.makedirs(command["tmpdir"])
    try:
        return launch.run(command)
    finally:
        shutil.rmtree(command["tmpdir"], ignore_errors=True)


def interpreters_for(manifest, args):
    """Environment name -> interpreter: --env-python ENV=PATH, else --python, else the one running this driver."""
    chosen = {}
    for item in args.env_python:
        name, sep, path = item.partition("=")
        if not sep or not name or not path:
            raise BundleError(f"--env-python expects ENV=PATH (got {item!r})")
        chosen[name] = path
    out = {}
    for env in sorted({job["environment"] for job in manifest["jobs"]}):
        path = chosen.get(env) or args.python or sys.executable
        if os.sep in path and not os.path.exists(path):
            raise BundleError(f"interpreter {path} for environment {env!r}: no such file")
        if os.sep not in path and shutil.which(path) is None:
            raise BundleError(f"interpreter {path!r} for environment {env!r} is not on PATH")
        out[env] = path
    return out


def set_up(bundle, args, interpreters):
    """--setup-env, from the bundle's harness (on sys.path since load_harness); what stops it stops the bundle."""
    try:
        from benchgrid_harness import bundle_env
    except ImportError as exc:
        raise BundleError(
            f"{os.path.join(bundle, 'harness')}: --setup-env cannot be loaded ({exc}); export the bundle again"
        )
    try:
        return bundle_env.set_up_interpreters(bundle, args, interpreters)
    except bundle_env.SetupError as exc:
        raise BundleError(str(exc))


def on_signal(signum, _frame):
    raise Stop(signum)


def parse_args(argv):
    parser = argparse.ArgumentParser(prog="driver.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "bundle",
        nargs="?",
        default=os.path.dirname(os.path.abspath(__file__)),
        help="bundle directory (default: the one holding this file)",
    )
    parser.add_argument("--python", help="interpreter with torch for every environment (default: this one)")
    parser.add_argument(
        "--env-python",
        action="append",
        default=[],
        metavar="ENV=PATH",
        help="interpreter for one environment (repeatable)",
    )
    parser.add_argument(
        "--setup-env",
        metavar="DIR",
        help="first create a virtual environment in DIR from the bundle's wheelhouse on top of "
        "--python's packages, and run every environment not given by --env-python with it",
    )
    parser.add_argument(
        "--stop-after-s",
        type=float,
        metavar="S",
        help="start no process after S seconds (a time box); run again to finish the rest",
    )
    return parser.parse_args(argv)


def run_jobs(launch, journal, bundle, todo, interpreters, stop_after_s):
    """Runs the jobs in order, journaling each as it ends; False when the time box stopped it first."""
    box = time.monotonic()
    for n, job in enumerate(todo, 1):
        if stop_after_s is not None and time.monotonic() - box > stop_after_s:
            print(
                f"driver: time box of {stop_after_s:g} s reached: {len(todo) - n + 1} process(es) not "
                "started; run the driver again to finish them",
                file=sys.stderr,
                flush=True,
            )
            return False
        started, clock = journal.now_iso(), time.monotonic()
        exit_info = run_job(launch, bundle, job, interpreters[job["environment"]])
        wall = round(time.monotonic() - clock, 3)
        journal.append(os.path.join(bundle, JOURNAL), journal.process_record(job, started, wall, exit_info))
        wrote = os.path.exists(os.path.join(bundle, job["result"]))
        how = "timed out" if exit_info["timedOut"] else exit_info["signal"] or f"exit {exit_info['exitCode']}"
        print(
            f"[{n}/{len(todo)}] {job['cell']} {job['kind']}#{job['index']} {how}"
            f"{'' if wrote else ', no result'} ({wall:.1f} s)",
            file=sys.stderr,
            flush=True,
        )
    return True


def main(argv=None):
    args = parse_args(argv)
    bundle = os.path.abspath(args.bundle)
    setup = None
    try:
        manifest = load_bundle(bundle)
        launch, journal = load_harness(bundle)
        interpreters = interpreters_for(manifest, args)
        if args.setup_env:
            interpreters, setup = set_up(bundle, args, interpreters)
    except BundleError as exc:
        print(f"driver: {exc}", file=sys.stderr)
        return 2
    journal_path = os.path.join(bundle, JOURNAL)
    done = journal.done_keys(journal_path)
    todo = [job for job in manifest["jobs"] if job["key"] not in done]
    shard = manifest.get("shard") or {"index": 0, "count": 1}
    print(
        f"driver: {manifest['spec']['name']} shard {shard['index'] + 1}/{shard['count']}: "
        f"{len(manifest['jobs'])} processes, {len(todo)} to run",
        file=sys.stderr,
        flush=True,
    )
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    try:
        if todo:
            record = journal.driver_record(manifest, interpreters)
            if setup is not None:
                record["environment_setup"] = setup
            journal.append(journal_path, record)
        if not run_jobs(launch, journal, bundle, todo, interpreters, args.stop_after_s):
            return 0
    except Stop as stop:
        print(f"driver: {stop}: stopped; what finished is kept. Run the driver again to resume.", file=sys.stderr)
        return 128 + stop.signum
    print(f"driver: done; results in {bundle}/results, journal {journal_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
