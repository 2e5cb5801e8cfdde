"""`python -m benchgrid_harness.forkserver --threads N`: a clean parent that forks one child per cell process.

The parent imports torch, torchvision and the harness's own modules, and nothing else: no CUDA
initialisation, no tool, no model, no tensor operation (which would start torch's thread pools). Each
child starts from those untouched modules, so what one cell's tool patches dies with that cell's child.

It serves launch.py's loop and command lines (launch.py's docstring): a command with "start": "fork" is
forked here, any other starts a cold interpreter as benchgrid_harness.launch does (memory processes,
whose peak RSS a fork would not count). The environment, time limit and kill are launch.py's.
"""

import os
import signal
import sys
import traceback

from . import launch

if __name__ == "__main__":
    # Before torch is imported: the parent runs with a cell's environment, as its children will.
    _THREADS = sys.argv[sys.argv.index("--threads") + 1] if "--threads" in sys.argv[:-1] else "1"
    launch.contain("benchgrid_harness.forkserver", ["--threads", _THREADS], _THREADS)

# Imported before any fork so a child never pays for them; none imports an adapter or a tool.
import torch
import torchvision  # noqa: F401

from . import phases
from .__main__ import main as harness_main
from . import cell  # noqa: F401 - the harness's torch-side modules (timing, exactness, subjects, ...)

# What the parent's own PYTHONPATH put on sys.path; a child replaces it with its request's.
_PARENT_PATH = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
_EXIT_INTERNAL = 70


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
    for fd in launch.WAKE_FDS:
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
    # The same environment a cold process gets, from the parent's own (itself contained by launch.contain).
    env = launch.cell_env(os.environ, command["pythonpath"], command["threads"], command.get("tmpdir"))
    os.environ.clear()
    os.environ.update(env)
    sys.path[:] = _child_path(cwd, env.get("PYTHONPATH", ""))
    import importlib
    import tempfile

    importlib.invalidate_caches()
    tempfile.tempdir = None  # gettempdir() caches; the child's TMPDIR must win
    if command.get("cpus"):
        os.sched_setaffinity(0, command["cpus"])
    args = command["argv"][2:]
    sys.argv = [os.path.join(os.path.dirname(__file__), "__main__.py"), *args]
    return harness_main(args)


def _fork(command):
    """Forks one cell process; returns its pid once the child has its own session (raises when it cannot)."""
    if command["argv"][:2] != ["-m", "benchgrid_harness"]:
        raise ValueError("only the harness (-m benchgrid_harness) is forked; start anything else cold")
    if torch.cuda.is_initialized():  # never expected: a forked child could not use CUDA
        raise RuntimeError("CUDA was initialised in the fork server; refusing to fork")
    sys.stdout.flush()
    sys.stderr.flush()
    synced_r, synced_w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(synced_r)
        os.close(synced_w)
        raise
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
    return pid


if __name__ == "__main__":
    launch.serve({"torch": torch.__version__, "modules": len(sys.modules)}, fork=_fork)
