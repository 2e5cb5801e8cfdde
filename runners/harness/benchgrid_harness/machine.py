"""What the rest of the machine did while a process timed (docs/protocol.md, "Load beside each process").

A ratio timed in one process is free of that process's speed, but not of what the machine does beside it:
a Python-heavy tool and a BLAS-heavy forward slow differently when other work shares the cores. So every
timing process records, for its timed phase, how many cores other work kept busy: the machine's busy CPU
time (/proc/stat) minus this process's own (getrusage), over the phase's wall time, and the time the
hypervisor stole from this machine's CPUs. Read outside every timed window (before the first clock and
after the last); None where /proc/stat does not exist (not Linux).
"""

import os
import resource
import time

_BUSY = (0, 1, 2, 5, 6)  # user, nice, system, irq, softirq (iowait and idle are not busy)
_STEAL = 7


def _stat():
    """(busy seconds, stolen seconds) of every CPU together since boot, or None off Linux."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if not fields or fields[0] != "cpu":
        return None
    ticks = [int(v) for v in fields[1:]]
    hz = os.sysconf("SC_CLK_TCK")
    steal = ticks[_STEAL] if len(ticks) > _STEAL else 0
    return sum(ticks[i] for i in _BUSY if i < len(ticks)) / hz, steal / hz


def _own():
    """CPU seconds of this process (every thread), user and system."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class LoadProbe:
    """start() before a timed phase, stop() after it: the phase's load as the result's `timing.load`."""

    def start(self):
        self._wall, self._stat, self._own = time.monotonic(), _stat(), _own()
        return self

    def stop(self):
        after, wall, own = _stat(), time.monotonic() - self._wall, _own() - self._own
        if self._stat is None or after is None or wall <= 0:
            return None
        busy = after[0] - self._stat[0]
        # /proc/stat counts in clock ticks (10 ms): a phase shorter than a few ticks says little, so the
        # figures are rounded and never negative (this process's own time is counted exactly, the machine's
        # in ticks).
        return {
            "others_busy": round(max(0.0, (busy - own) / wall), 3),
            "steal": round(max(0.0, (after[1] - self._stat[1]) / wall), 3),
            "seconds": round(wall, 3),
            "cpus": os.cpu_count(),
        }
