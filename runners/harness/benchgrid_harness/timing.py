"""Warm-ups and timed samples of a zero-argument callable, with the clock read only around the call.

Garbage collection policy (docs/protocol.md, issue 13): the collector never runs inside a timed window.
Before sampling, one full collection, then `gc.freeze()` moves every object alive then (the model, torch,
a tool's long-lived state) out of the collector's reach, so later collections walk only what the samples
created. While sampling the automatic collector is disabled; after each sample one full `gc.collect()`
runs outside the clock, timed on its own and recorded as that sample's `gc_ms`, and the sample's result is
dropped before the next clock starts: the cost of the garbage the tool made is measured, but never lands
at random in a sample.
"""

import gc
import time

import torch

from .device import is_cuda, synchronize
from .precision import median_half_width


def warm_up(run, count, device):
    """Call `run` `count` times, untimed; the work is finished (synchronised) on return."""
    for _ in range(count):
        run()
    synchronize(device)


def _collect(clock):
    """One full collection, timed (ns): the garbage of the sample just taken, freed outside its window."""
    started = clock()
    gc.collect()
    return clock() - started


def _stop_reason(count, spent, durations, limits):
    """Why sampling stops after `count` samples, or None to go on (checked between samples, off the clock)."""
    samples, min_samples, budget_ns, precision = limits
    if count >= samples:
        return "samples"
    if count < min_samples:
        return None
    if spent > budget_ns:
        return "budget"
    if precision is not None and median_half_width(durations[:count]) <= precision:
        return "precision"
    return None


def _sample_cpu(run, limits, durations, gc_ns):
    """CPU loop: returns (count, stopped_by, last result); `durations` and `gc_ns` are preallocated.

    Kept apart from the CUDA loop on purpose: one loop with an `if cuda:` would add a branch to every
    timed call, and the harness must add nothing measurable to what it times.
    """
    clock = time.perf_counter_ns
    spent = 0
    count = 0
    result = None
    while True:
        # The previous sample's result is freed here, before the clock starts (cycles it holds by the
        # collection after this sample), not by the assignment below, inside this sample's window.
        result = None
        started = clock()
        result = run()
        elapsed = clock() - started
        durations[count] = elapsed
        gc_ns[count] = _collect(clock)
        count += 1
        spent += elapsed + gc_ns[count - 1]
        stopped_by = _stop_reason(count, spent, durations, limits)
        if stopped_by is not None:
            return count, stopped_by, result


def _sample_cuda(run, limits, durations, gc_ns, device):
    """CUDA loop: synchronise before starting the clock and after each call, so the sample is the GPU work."""
    clock = time.perf_counter_ns
    sync = torch.cuda.synchronize
    spent = 0
    count = 0
    result = None
    while True:
        result = None
        sync(device)
        started = clock()
        result = run()
        sync(device)
        elapsed = clock() - started
        durations[count] = elapsed
        gc_ns[count] = _collect(clock)
        count += 1
        spent += elapsed + gc_ns[count - 1]
        stopped_by = _stop_reason(count, spent, durations, limits)
        if stopped_by is not None:
            return count, stopped_by, result


def sample(run, settings, device):
    """Time `run` up to `samples` times, until `sampling_budget_s` of timed work and collections, or until
    the median is precise to `precision` (never below `min_samples`).

    Returns (timing dict for the result, the last call's return value). See the module docstring for the
    garbage collection policy; the collector is re-enabled (and unfrozen) on return, whatever happens.
    """
    samples, min_samples = settings["samples"], settings["min_samples"]
    limits = (samples, min_samples, int(settings["sampling_budget_s"] * 1e9), settings.get("precision"))
    # Preallocated so the loop only stores an int per sample.
    durations = [0] * samples
    gc_ns = [0] * samples
    was_enabled = gc.isenabled()
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        if is_cuda(device):
            count, stopped_by, result = _sample_cuda(run, limits, durations, gc_ns, device)
        else:
            count, stopped_by, result = _sample_cpu(run, limits, durations, gc_ns)
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
    timing = {
        "timer": "perf_counter_ns",
        "sync": "cuda.synchronize" if is_cuda(device) else "none",
        "warmups": settings["warmups"],
        "samples_ms": [ns / 1e6 for ns in durations[:count]],
        "gc": "collect-between-samples",
        "gc_ms": [ns / 1e6 for ns in gc_ns[:count]],
        "stopped_by": stopped_by,
    }
    return timing, result
