"""How a cell process ended: the exit info of src/records/outcome.ts `Exit`, which the launcher answers and
the bundle driver journals (launch.py). Standard library only and no torch, like launch.py.
"""

import os
import signal

TAIL_BYTES = 4000


def tail(path):
    """The last bytes of a log file ('' when it cannot be read): the tail kept for error reports."""
    try:
        with open(path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - TAIL_BYTES))
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


def exit_info(command, code=None, signum=None, timed_out=False, spawn_error=None):
    """How a process ended, as src/records/outcome.ts `Exit` (and the driver's journal) has it."""
    return {
        "exitCode": code,
        "signal": None if signum is None else signal_name(signum),
        "timedOut": timed_out,
        "timeoutS": command["timeout_s"],
        "spawnError": None if timed_out else spawn_error,
        "stderrTail": tail(command["stderr"]),
        "stdoutTail": tail(command["stdout"]),
    }


def wait_status(status):
    """(exit code, signal number) of a waitpid status."""
    if os.WIFSIGNALED(status):
        return None, os.WTERMSIG(status)
    return os.WEXITSTATUS(status), None
