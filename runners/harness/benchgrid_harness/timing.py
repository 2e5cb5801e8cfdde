"""Warm-ups and timed samples of a zero-argument callable, with the clock read only around the call."""

import time

import torch

from .device import is_cuda, synchronize


def warm_up(run, count, device):
    """Call `run` `count` times, untimed; the work is finished (synchronised) on return."""
    for _ in range(count):
        run()
    synchronize(device)


def _sample_cpu(run, samples, min_samples, budget_ns, durations):
    """CPU loop: returns (count, stopped_by, last result); `durations` is preallocated.

    Kept apart from the CUDA loop on purpose: one loop with an `if cuda:` would add a branch to every
    timed call, and the harness must add nothing measurable to what it times.
    """
    clock = time.perf_counter_ns
    spent = 0
    count = 0
    result = None
    while True:
        started = clock()
        result = run()
        elapsed = clock() - started
        durations[count] = elapsed
        count += 1
        spent += elapsed
        if count >= samples:
            return count, "samples", result
        if spent > budget_ns and count >= min_samples:
            return count, "budget", result


def _sample_cuda(run, samples, min_samples, budget_ns, durations, device):
    """CUDA loop: synchronise before starting the clock and after each call, so the sample is the GPU work."""
    clock = time.perf_counter_ns
    sync = torch.cuda.synchronize
    spent = 0
    count = 0
    result = None
    while True:
        sync(device)
        started = clock()
        result = run()
        sync(device)
        elapsed = clock() - started
        durations[count] = elapsed
        count += 1
        spent += elapsed
        if count >= samples:
            return count, "samples", result
        if spent > budget_ns and count >= min_samples:
            return count, "budget", result


def sample(run, settings, device):
    """Time `run` up to `samples` times or until `sampling_budget_s` of timed work (never below `min_samples`).

    Returns (timing dict for the result, the last call's return value). Garbage collection stays on: the
    collector's work on a tool's Python objects is part of that tool's cost.
    """
    samples, min_samples = settings["samples"], settings["min_samples"]
    budget_ns = int(settings["sampling_budget_s"] * 1e9)
    # Preallocated so the loop only stores an int per sample.
    durations = [0] * samples
    if is_cuda(device):
        count, stopped_by, result = _sample_cuda(run, samples, min_samples, budget_ns, durations, device)
    else:
        count, stopped_by, result = _sample_cpu(run, samples, min_samples, budget_ns, durations)
    timing = {
        "timer": "perf_counter_ns",
        "sync": "cuda.synchronize" if is_cuda(device) else "none",
        "warmups": settings["warmups"],
        "samples_ms": [ns / 1e6 for ns in durations[:count]],
        "stopped_by": stopped_by,
    }
    return timing, result
