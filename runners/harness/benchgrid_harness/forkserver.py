"""`python -m benchgrid_harness.forkserver`: a clean parent that forks one child per cell process.

The parent imports torch, torchvision and the harness's own modules, and nothing else: no CUDA
initialisation, no tool, no model, no tensor operation (which would start torch's thread pools). Each
child starts from those untouched modules, so what one cell's tool patches dies with that cell's child.

The fork line format (not the spec's timing `protocol`, nor the wire version): one JSON object per line.
The parent prints `{"ready": true, ...}` once imported, then reads
commands on stdin:
    {"id": 1, "argv": ["--request", R, "--result", S], "cwd": D, "env": {...},
     "stdout": F, "stderr": G, "cpus": [0] | null}
and answers `{"id": 1, "pid": N}` as soon as the child exists (in its own session), then
`{"id": 1, "pid": N, "exit": code | null, "signal": "SIGKILL" | null}` when it ends. End of stdin
kills every remaining child's process group and ends the parent.
"""

import json
import os
import select
import signal
import sys
import traceback

# Imported before any fork so a child never pays for them; none imports an adapter or a tool.
import torch
import torchvision  # noqa: F401

from . import phases
from .__main__ import main as harness_main
from . import cell  # noqa: F401 - the harness's torch-side modules (timing, exactness, subjects, ...)

# What the parent's own PYTHONPATH put on sys.path; a child replaces it with its request's.
_PARENT_PATH = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
_EXIT_INTERNAL = 70
# The parent's SIGCHLD wake-up pipe, closed in each child.
_WAKE = []


def _send(message):
    """One line of the fork line format on the parent's stdout."""
    os.write(1, (json.dumps(message) + "\n").encode())


def _child_path(cwd, pythonpath):
    """sys.path as `python -m` in `cwd` with PYTHONPATH=`pythonpath` would have it."""
    rest = [p for p in sys.path[1:] if p not in _PARENT_PATH]
    entries = [os.path.abspath(os.path.join(cwd, p)) for p in pythonpath.split(os.pathsep) if p]
    return [cwd, *entries, *rest]


def _become_cell(command, synced):
    """In the child: take the cell's process group, files, environment and cores, then run the harness."""
    os.setsid()
    os.write(synced, b"1")
    os.close(synced)
    signal.set_wakeup_fd(-1)
    for fd in _WAKE:
        os.close(fd)
    # What a fresh interpreter has: Python's own SIGINT handler, the rest at their defaults.
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    for fd, name in ((1, "stdout"), (2, "stderr")):
        target = os.open(command[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, fd)
        os.close(target)
    cwd = command["cwd"]
    os.chdir(cwd)
    env = command["env"]
    os.environ.clear()
    os.environ.update(env)
    sys.path[:] = _child_path(cwd, env.get("PYTHONPATH", ""))
    import importlib
    import tempfile
    importlib.invalidate_caches()
    tempfile.tempdir = None  # gettempdir() caches; the child's TMPDIR must win
    if command.get("cpus"):
        os.sched_setaffinity(0, command["cpus"])
    sys.argv = [os.path.join(os.path.dirname(__file__), "__main__.py"), *command["argv"]]
    return harness_main(command["argv"])


def _fork(command, children):
    """Fork one cell process; answers with its pid once the child has its own session."""
    if torch.cuda.is_initialized():  # never expected: a forked child could not use CUDA
        raise RuntimeError("CUDA was initialised in the fork server; refusing to fork")
    sys.stdout.flush()
    sys.stderr.flush()
    synced_r, synced_w = os.pipe()
    try:
        pid = os.fork()
    except OSError as exc:
        os.close(synced_r)
        os.close(synced_w)
        _send({"id": command["id"], "error": f"fork failed: {exc}"})
        return
    if pid == 0:
        phases.mark_fork()
        code = _EXIT_INTERNAL
        try:
            os.close(synced_r)
            code = _become_cell(command, synced_w)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # noqa: BLE001 - the child must never return into the server's loop
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code)
    os.close(synced_w)
    os.read(synced_r, 1)  # b"" if the child died first; either way setsid is done or moot
    os.close(synced_r)
    children[pid] = command["id"]
    _send({"id": command["id"], "pid": pid})


def _reap(children):
    """Report every child that has ended."""
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        ident = children.pop(pid, None)
        if ident is None:
            continue
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            try:
                name = signal.Signals(number).name
            except ValueError:
                name = f"SIG{number}"
            _send({"id": ident, "pid": pid, "exit": None, "signal": name})
        else:
            _send({"id": ident, "pid": pid, "exit": os.waitstatus_to_exitcode(status), "signal": None})


def _kill_all(children):
    """At shutdown: nothing a cell started outlives the server."""
    for pid in list(children):
        for target in (-pid, pid):
            try:
                os.kill(target, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    for pid in list(children):
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        children.pop(pid, None)


def _handle(line, children):
    """One command: fork its child, or answer why not (the orchestrator must never wait for nothing)."""
    try:
        command = json.loads(line)
    except ValueError as exc:
        print(f"benchgrid forkserver: a command is not JSON ({exc}): {line[:200]!r}", file=sys.stderr)
        return
    ident = command.get("id") if isinstance(command, dict) else None
    try:
        missing = [key for key in ("id", "argv", "cwd", "env", "stdout", "stderr") if key not in command]
        if missing:
            raise KeyError(f"command lacks {', '.join(missing)}")
        _fork(command, children)
    except Exception as exc:  # noqa: BLE001 - reported to the orchestrator as this process's failure
        if ident is None:
            print(f"benchgrid forkserver: bad command {line[:200]!r}: {exc}", file=sys.stderr)
        else:
            _send({"id": ident, "error": f"{type(exc).__name__}: {exc}"})


def serve():
    """The parent's loop: commands on stdin, SIGCHLD through a wake-up pipe; single-threaded, so fork is safe."""
    # Ctrl-C reaches the whole foreground group; the orchestrator decides what stops, through stdin.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Terminated (execa's cleanup when the orchestrator exits): still kill the children on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    wake_r, wake_w = os.pipe()
    _WAKE[:] = [wake_r, wake_w]
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    children = {}
    pending = b""
    _send({"ready": True, "pid": os.getpid(), "python": sys.version.split()[0], "torch": torch.__version__,
           "modules": len(sys.modules)})
    try:
        while True:
            readable, _, _ = select.select([0, wake_r], [], [], 1.0)
            if wake_r in readable:
                try:
                    while os.read(wake_r, 512):
                        pass
                except BlockingIOError:
                    pass
            _reap(children)
            if 0 in readable:
                chunk = os.read(0, 65536)
                if not chunk:
                    break
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    if line.strip():
                        _handle(line.decode(), children)
    finally:
        _kill_all(children)


if __name__ == "__main__":
    serve()
