"""Wall-clock durations of a cell process's phases, reported as `phases_s`."""

import os
import time
from contextlib import contextmanager

NAMES = (
    "startup",
    "imports",
    "build",
    "reference",
    "before",
    "prepare",
    "warmup",
    "timed",
    "check",
    "witness",
    "precision_control",
)

# perf_counter() at the fork, in a child of the fork server (forkserver.py); None in a cold process.
_forked_at = None


def mark_fork():
    """Called first thing in a forked child: its startup is then the time since the fork, not since the parent began."""
    global _forked_at
    _forked_at = time.perf_counter()


def process_age_s():
    """Seconds since this process started (a forked child: since the fork); from /proc in a cold process
    (Linux, 10 ms ticks); None where unavailable."""
    if _forked_at is not None:
        return time.perf_counter() - _forked_at
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            stat = f.read()
        # The command name in field 2 may hold spaces, so count fields after its closing parenthesis;
        # starttime is field 22 overall, in clock ticks since boot (the clock CLOCK_BOOTTIME reads).
        start_ticks = int(stat[stat.rindex(")") + 2 :].split()[19])
        started = start_ticks / os.sysconf("SC_CLK_TCK")
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class Phases:
    """Accumulates seconds per phase; a phase left by an exception still records its time."""

    def __init__(self):
        self.seconds = dict.fromkeys(NAMES)

    @contextmanager
    def __call__(self, name):
        """Time the enclosed block into phase `name` (added to it if the phase was entered before)."""
        started = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - started
            self.seconds[name] = (self.seconds[name] or 0.0) + elapsed

    def set(self, name, seconds):
        """Record a duration measured elsewhere (the startup)."""
        self.seconds[name] = seconds
