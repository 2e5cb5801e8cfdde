"""Memory of a cell process: the peaks of a memory-mode process, and the growth per call of a timing
process (what each further call keeps that the process does not give back).

Growth (docs/protocol.md, "Memory"): a timing process reads its resident set size (and on CUDA the bytes
torch's allocator has handed to live tensors) once before its first sample and again after every sample,
each time right after that sample's full collection, off every clock. What one call keeps is the
Theil-Sen slope of the readings after the samples (the median of the slopes between every two): a leak
raises every such slope alike, while a one-off step (parameter gradients made by the first timed
backward, a cache filled once, an allocator arena kept) raises only the pairs across it and moves the
median little, where "(last - first) / calls" would spread it over the calls as growth. Each reading after a sample holds that
sample's result (freed before the next clock starts), so they are alike. Fewer than three samples cannot
tell a step from a leak, and give no figure (null): the two ends' difference over two calls read the
45 MiB of gradients a first timed backward makes as 5.6 MiB "kept" per call.
"""

import resource
import sys

import torch

from .device import is_cuda


def reset_peaks(device):
    """Start the CUDA peak counter afresh (after the subject is built); RSS peaks cannot be reset."""
    if is_cuda(device):
        torch.cuda.reset_peak_memory_stats(device)


def read_peaks(device):
    """The result's `memory` object; call after the measured calls were synchronised."""
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is in kilobytes on Linux and in bytes on macOS.
    peak_rss = maxrss if sys.platform == "darwin" else maxrss * 1024
    cuda_peak = int(torch.cuda.max_memory_allocated(device)) if is_cuda(device) else None
    return {"peak_rss_bytes": int(peak_rss), "cuda_peak_allocated_bytes": cuda_peak}


def rss_bytes(statm="/proc/self/statm"):
    """This process's resident set size now (not its peak: ru_maxrss never goes down), from Linux's
    /proc; None where there is none to read."""
    try:
        with open(statm, encoding="ascii") as f:
            resident_pages = int(f.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return resident_pages * resource.getpagesize()


def cuda_allocated_bytes(torch_module, device):
    """Bytes of live tensors on `device` by `torch_module`'s caching allocator (what it handed out, not
    what it reserved, so cached free blocks are not growth); None off CUDA, where there is no such count.
    The module is a parameter so that the arithmetic around it runs, and is tested, without a GPU."""
    if not is_cuda(device):
        return None
    return int(torch_module.cuda.memory_allocated(device))


def held_bytes(value):
    """{"cpu": bytes, "cuda": bytes} of the storages behind the tensors of `value` (nested tuples, lists,
    dicts), each storage once: a view holds its whole storage, and two views of one storage hold it once."""
    seen = {}
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, torch.Tensor):
            try:
                storage = v.untyped_storage()
                seen[(v.device.type, storage.data_ptr())] = storage.nbytes()
            except (RuntimeError, NotImplementedError):  # sparse, meta and other tensors without one storage
                continue
        elif isinstance(v, (tuple, list)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    out = {"cpu": 0, "cuda": 0}
    for (kind, _), nbytes in seen.items():
        if kind in out:
            out[kind] += nbytes
    return out


def reading(device, torch_module=torch):
    """(RSS, CUDA allocated bytes) now; the caller has just run a full collection."""
    return rss_bytes(), cuda_allocated_bytes(torch_module, device)


THEIL_SEN_POINTS = 200
"""Readings the slope is fitted on at most (evenly spaced): 19,900 pairs, a few milliseconds, off the clock."""


def robust_slope(series):
    """Bytes per call of `series` (one reading after each call): the Theil-Sen slope, the median of the
    slopes between every two readings; None below three readings or where a reading is missing. A step
    between two neighbouring readings raises only the slopes of pairs across it, fewer than half of them
    unless it sits near the middle, while a steady leak raises every one. Over THEIL_SEN_POINTS readings
    are thinned evenly first (the positions are kept, so slopes stay per call)."""
    if len(series) < 3 or any(v is None for v in series):
        return None
    step = max(1, -(-len(series) // THEIL_SEN_POINTS))
    points = list(enumerate(series))[::step]
    slopes = sorted((b - a) / (j - i) for k, (i, a) in enumerate(points) for (j, b) in points[k + 1 :])
    mid = len(slopes) // 2
    return slopes[mid] if len(slopes) % 2 else (slopes[mid - 1] + slopes[mid]) / 2


def growth(before, after, held, calls, series=()):
    """The timing record's `memory_growth`: the readings before the first sample and after the last (each
    `reading()`, kept for the record), the bytes the last result held at the last one (`held_bytes`), the
    calls, and per counter what one call kept: the robust slope of `series` (one `reading()` after each
    call; module docstring), null where the counter was not read or there are under three readings."""
    (rss_before, cuda_before), (rss_after, cuda_after) = before, after
    both = lambda a, b: None if a is None or b is None else [a, b]  # noqa: E731
    cuda = both(cuda_before, cuda_after)
    return {
        "calls": calls,
        "rss_bytes": both(rss_before, rss_after),
        "cuda_allocated_bytes": cuda,
        "held_bytes": {"rss": held["cpu"], "cuda": held["cuda"] if cuda is not None else None},
        "per_call_bytes": {
            "rss": robust_slope([r[0] for r in series]),
            "cuda": robust_slope([r[1] for r in series]) if cuda is not None else None,
        },
    }
