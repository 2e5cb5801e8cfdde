"""Starts cell processes: the one implementation of a cell process's environment, time limit and kill.

Every launcher goes through this module, so a local run and a bundle run start their processes the same way:
- `benchgrid run --start cold` talks to `python -m benchgrid_harness.launch` (serve() below), one per
  environment: Node sends one command per process and reads back its pid and how it ended;
- `benchgrid run --start fork` talks to `python -m benchgrid_harness.forkserver`, which serves the same
  loop with one more way to start a process (a fork of a parent that imported torch);
- the bundle driver (driver.py) calls run() for each job, without Node;
- selfcheck.py builds its cell environment with cell_env().

Standard library only and no torch: the driver imports it on a machine that has only Python.

A command (one JSON object per line on serve()'s stdin; a dict for run()):
    {"id": 1, "start": "cold" | "fork", "python": P, "argv": ["-m", "benchgrid_harness", "--request", R, "--result", S],
     "cwd": D, "pythonpath": [dirs], "threads": N, "tmpdir": T | null, "stdout": F, "stderr": G,
     "cpus": [0, 1] | null, "timeout_s": 120}
serve() answers `{"id": 1, "pid": N}` once the process exists in its own session, and
`{"id": 1, "exit": EXIT}` when it has ended, EXIT having the fields of src/records/outcome.ts `Exit`
(null for absent). `{"id": 1, "kill": true}` kills that process's group at once (Ctrl-C in Node).
End of stdin kills every process still running and ends the server.
"""

import json
import os
import select
import signal
import subprocess
import sys
import time

from . import WIRE

# How a process ended is exits.py's; its names stay reachable here, where the launcher's callers and tests look.
from .exits import TAIL_BYTES, exit_info, signal_name  # noqa: F401
from .exits import wait_status as _status

# The directory holding the benchgrid_harness package: on every cell process's PYTHONPATH.
HARNESS_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Set in a server that already runs with a cell's environment (contain()); never passed on to a cell.
_CONTAINED = "BENCHGRID_LAUNCHER_CONTAINED"
# The server's SIGCHLD wake-up pipe; a forked child closes it.
WAKE_FDS = []


def cell_env(parent, pythonpath, threads, tmpdir=None):
    """A cell process's environment: wire.json's allow-listed variables of `parent`, the fixed ones, the threads.

    The only place the allow-list is applied (pyperf drops the parent's environment the same way)."""
    env = {k: parent[k] for k in WIRE["env"]["pass"] if k in parent}
    env["PYTHONPATH"] = os.pathsep.join(pythonpath)
    env.update(WIRE["env"]["set"])
    env.update({k: str(threads) for k in WIRE["env"]["threads"]})
    if tmpdir is not None:
        env["TMPDIR"] = tmpdir
    return env


def contain(module, argv, threads):
    """Re-executes this server once with a cell's environment, so what it imports before forking (torch reads
    its thread variables at import) sees exactly what a cold cell process sees."""
    if os.environ.get(_CONTAINED) == "1":
        return
    env = cell_env(os.environ, [HARNESS_DIR], threads)
    env[_CONTAINED] = "1"
    os.execve(sys.executable, [sys.executable, "-m", module, *argv], env)


def kill_group(pid):
    """SIGKILL to the process group `pid` leads (every cell process leads its own)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is already gone


def start_cold(command, parent=None):
    """Starts `python ARGV` (a cell: `-m benchgrid_harness --request R --result S`) in its own session (so its
    whole tree can be killed), with the cell environment, its output to the log files, pinned to `cpus` when given. Raises OSError."""
    env = cell_env(
        os.environ if parent is None else parent, command["pythonpath"], command["threads"], command.get("tmpdir")
    )
    cpus = command.get("cpus")
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    with open(command["stdout"], "wb") as out, open(command["stderr"], "wb") as err:
        return subprocess.Popen(
            [command["python"], *command["argv"]],
            env=env,
            cwd=command["cwd"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
            preexec_fn=pin,  # noqa: PLW1509 - the launcher starts no threads
        )


def spawn_error(command, exc):
    return f"{command['python']}: {exc.strerror or exc}"


def run(command):
    """Runs one cell process to its end (killing its tree at the time limit); returns its exit info."""
    try:
        proc = start_cold(command)
    except OSError as exc:
        return exit_info(command, spawn_error=spawn_error(command, exc))
    timed_out = False
    try:
        code = proc.wait(timeout=command["timeout_s"])
    except subprocess.TimeoutExpired:
        timed_out = True
        kill_group(proc.pid)
        code = proc.wait()
    except BaseException:
        kill_group(proc.pid)
        proc.wait()
        raise
    # Whatever the cell left running (a tool's worker, a stray child) goes with it.
    kill_group(proc.pid)
    return exit_info(command, code if code >= 0 else None, -code if code < 0 else None, timed_out)


# --- The server Node talks to ----------------------------------------------------------------------------


def send(message):
    """One line on the server's stdout."""
    os.write(1, (json.dumps(message) + "\n").encode())


class _Child:
    """A running process of the server: its command and deadline."""

    def __init__(self, command, proc=None):
        self.command = command
        self.proc = proc
        self.deadline = time.monotonic() + command["timeout_s"]
        self.timed_out = False


def _start(command, children, fork):
    """Starts one command's process (cold, or through `fork`) and answers with its pid, or with why not."""
    missing = [
        k
        for k in ("id", "python", "argv", "cwd", "pythonpath", "threads", "stdout", "stderr", "timeout_s")
        if k not in command
    ]
    if missing:
        raise KeyError(f"command lacks {', '.join(missing)}")
    if command.get("start") == "fork":
        if fork is None:
            raise ValueError("this launcher does not fork; start it as benchgrid_harness.forkserver")
        pid, proc = fork(command), None
    else:
        try:
            proc = start_cold(command)
        except OSError as exc:
            send({"id": command["id"], "exit": exit_info(command, spawn_error=spawn_error(command, exc))})
            return
        pid = proc.pid
    children[pid] = _Child(command, proc)
    send({"id": command["id"], "pid": pid})


def _reap(children):
    """Answers for every child that has ended, after killing what it left running."""
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        child = children.pop(pid, None)
        if child is None:
            continue
        kill_group(pid)
        code, signum = _status(status)
        if child.proc is not None:
            child.proc.returncode = -signum if signum is not None else code  # reaped here, not by Popen
        send({"id": child.command["id"], "exit": exit_info(child.command, code, signum, child.timed_out)})


def _expire(children):
    """Kills the groups of children past their time limit; returns seconds until the next deadline (<= 1)."""
    now, wait = time.monotonic(), 1.0
    for pid, child in children.items():
        if child.timed_out:
            continue
        if child.deadline <= now:
            child.timed_out = True
            kill_group(pid)
        else:
            wait = min(wait, child.deadline - now)
    return max(wait, 0.0)


def _kill_all(children):
    """At shutdown: nothing a cell started outlives the server."""
    for pid in list(children):
        kill_group(pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    for pid in list(children):
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        children.pop(pid, None)


def _handle(line, children, fork):
    """One command: start, kill, or answer why not (the orchestrator must never wait for nothing)."""
    try:
        command = json.loads(line)
    except ValueError as exc:
        print(f"benchgrid launcher: a command is not JSON ({exc}): {line[:200]!r}", file=sys.stderr)
        return
    ident = command.get("id") if isinstance(command, dict) else None
    try:
        if isinstance(command, dict) and command.get("kill") is True:
            for pid, child in children.items():
                if child.command["id"] == ident:
                    kill_group(pid)
            return
        _start(command, children, fork)
    except Exception as exc:  # noqa: BLE001 - reported to the orchestrator as this process's failure
        if ident is None:
            print(f"benchgrid launcher: bad command {line[:200]!r}: {exc}", file=sys.stderr)
        else:
            send({"id": ident, "error": f"{type(exc).__name__}: {exc}"})


def _drain(fd):
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def serve(ready, fork=None):
    """The server's loop: commands on stdin, SIGCHLD through a wake-up pipe; single-threaded, so fork is safe.
    `ready` is the first line it prints; `fork(command)` forks a child and returns its pid (raises when it cannot)."""
    # Ctrl-C reaches the whole foreground group; the orchestrator decides what stops, through stdin.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Terminated (execa's cleanup when the orchestrator exits): still kill the children on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    wake_r, wake_w = os.pipe()
    WAKE_FDS[:] = [wake_r, wake_w]
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children = {}
    pending = b""
    send({"ready": True, "pid": os.getpid(), "python": sys.version.split()[0], **ready})
    try:
        while True:
            readable, _, _ = select.select([0, wake_r], [], [], _expire(children))
            if wake_r in readable:
                _drain(wake_r)
            _reap(children)
            if 0 in readable:
                chunk = os.read(0, 65536)
                if not chunk:
                    break
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.strip():
                        _handle(line.decode(), children, fork)
    finally:
        _kill_all(children)


if __name__ == "__main__":
    serve({})
