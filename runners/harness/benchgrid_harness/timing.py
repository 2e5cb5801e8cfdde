"""Warm-ups and timed samples of a zero-argument callable, with the clock read only around the call.

Garbage collection policy (docs/protocol.md): the collector never runs inside a timed window. Before
sampling, one full collection, then `gc.freeze()` moves every object alive then (the model, torch, a
tool's long-lived state) out of the collector's reach, so later collections walk only what the samples
created. While sampling the automatic collector is disabled; after each sample one full `gc.collect()`
runs outside the clock, timed on its own and recorded as that sample's `gc_ms`, and the sample's result is
dropped before the next clock starts: the cost of the garbage the tool made is measured, but never lands
at random in a sample. The paired loop (`timed_pairs`: a tool and its baseline alternated pair by pair,
docs/protocol.md "Pairing"; what is paired is pairing.py's) applies the same policy to both sides of every pair.

Both loops read memory for its growth per call (memory.py): right after the collection that precedes the
first sample, and right after each sample's (each pair's) collection, so neither a reading nor a
collection lands in a sample.
"""

import gc
import time
from collections import namedtuple
from contextlib import contextmanager

import torch

from . import memory
from .device import is_cuda, synchronize
from .precision import median_half_width


def warm_up(run, count, device):
    """Call `run` `count` times, untimed; the work is finished (synchronised) on return."""
    for _ in range(count):
        run()
    synchronize(device)


def collect(clock):
    """One full collection, timed (ns): the garbage of the sample just taken, freed outside its window."""
    started = clock()
    gc.collect()
    return clock() - started


def _call_cpu(run, clock):
    """(ns, result) of one call: the clock is read right before and right after it, nothing else between."""
    started = clock()
    result = run()
    return clock() - started, result


def call_timer(device):
    """The timed call for `device`, chosen once: on CUDA the queue is synchronised before the clock starts
    and again before it stops, so a sample is the GPU work; on the CPU nothing but the call is in the window.
    Two functions rather than one with an `if cuda:` so that no branch runs inside a timed window."""
    if not is_cuda(device):
        return _call_cpu
    sync = torch.cuda.synchronize

    def _call_cuda(run, clock):
        sync(device)
        started = clock()
        result = run()
        sync(device)
        return clock() - started, result

    return _call_cuda


@contextmanager
def collector_paused():
    """The sampling half of the GC policy: one full collection, freeze, automatic collection off; on exit
    (also on error) unfrozen and re-enabled as it was."""
    was_enabled = gc.isenabled()
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()


# What stops a sampling loop: at most `samples`, never fewer than `min_samples`, the budget of timed work
# and collections in ns, the precision target, and the wall-clock limit in ns since the loop's first sample
# began (max_seconds_per_process; None: no such stop).
Limits = namedtuple("Limits", "samples min_samples budget_ns precision max_ns", defaults=(None,))


def stop_reason(count, spent, values, limits, since=None):
    """Why sampling stops after `count` samples, or None to go on (checked between samples, off the clock).
    `values` are what the precision rule judges: the samples, or a pair's ratios; `since` is the wall-clock
    time (ns) since the first sample began, read only when there is a wall-clock limit."""
    if count >= limits.samples:
        return "samples"
    if count < limits.min_samples:
        return None
    if spent > limits.budget_ns or (limits.max_ns is not None and since > limits.max_ns):
        return "budget"
    if limits.precision is not None and median_half_width(values[:count]) <= limits.precision:
        return "precision"
    return None


def limits_of(settings, samples=None, budget_s=None):
    """The Limits of the request's settings, the count and the budget optionally overridden."""
    samples = settings["samples"] if samples is None else samples
    budget_s = settings["sampling_budget_s"] if budget_s is None else budget_s
    wall_s = settings.get("max_seconds_per_process")
    return Limits(
        samples,
        min(settings["min_samples"], samples),
        int(budget_s * 1e9),
        settings.get("precision"),
        None if wall_s is None else int(wall_s * 1e9),
    )


def _since_start(limits, clock):
    """Reads of the wall-clock time (ns) since this call, made right before a loop's first sample; None, and no
    read of the clock at all, without a wall-clock limit."""
    if limits.max_ns is None:
        return lambda: None
    started = clock()
    return lambda: clock() - started


def _sample_loop(run, limits, durations, gc_ns, timed, clock, read=lambda: None, readings=None):
    """Returns (count, stopped_by, last result); `durations` and `gc_ns` are preallocated; `read()` is
    appended to `readings` after each sample's collection, off the clock (memory growth)."""
    spent = 0
    count = 0
    result = None
    since = _since_start(limits, clock)
    while True:
        # The previous sample's result is freed here, before the clock starts (cycles it holds by the
        # collection after this sample), not by the assignment below, inside this sample's window.
        result = None
        elapsed, result = timed(run, clock)
        durations[count] = elapsed
        gc_ns[count] = collect(clock)
        if readings is not None:
            readings.append(read())
        count += 1
        spent += elapsed + gc_ns[count - 1]
        stopped_by = stop_reason(count, spent, durations, limits, since())
        if stopped_by is not None:
            return count, stopped_by, result


def timing_facts(device, warmups):
    """The fields every timing record starts with: how the clock was read and the collector handled."""
    return {
        "timer": "perf_counter_ns",
        "sync": "cuda.synchronize" if is_cuda(device) else "none",
        "warmups": warmups,
        "gc": "collect-between-samples",
    }


def sample(run, settings, device, limits=None, clock=time.perf_counter_ns):
    """Time `run` up to `samples` times, until `sampling_budget_s` of timed work and collections, until
    `max_seconds_per_process` of wall-clock time since the first sample, or until the median is precise to
    `precision` (never below `min_samples`); `limits` (limits_of) overrides them.
    `clock` returns nanoseconds: perf_counter_ns, or the unit tests' fake clock (read in the same places).

    Returns (timing dict for the result, the last call's return value). See the module docstring for the
    garbage collection policy; the collector is re-enabled (and unfrozen) on return, whatever happens.
    """
    limits = limits or limits_of(settings)
    # Preallocated so the loop only stores an int per sample.
    durations = [0] * limits.samples
    gc_ns = [0] * limits.samples
    count, stopped_by, result, growth = _measured(_sample_loop, (run, limits, durations, gc_ns), device, clock)
    timing = {
        **timing_facts(device, settings["warmups"]),
        "samples_ms": [ns / 1e6 for ns in durations[:count]],
        "gc_ms": [ns / 1e6 for ns in gc_ns[:count]],
        "stopped_by": stopped_by,
        "memory_growth": growth,
    }
    return timing, result


def _measured(loop, args, device, clock):
    """Runs `loop(*args, timed, clock, read, readings)` under the GC policy, memory read before it and after
    each sample's (pair's) collection: (count, stopped_by, last result, memory growth per call)."""
    with collector_paused():
        # collector_paused has just collected, and the loop ends on the last sample's collection.
        before = memory.reading(device)
        series = []
        count, stopped_by, last = loop(*args, call_timer(device), clock, lambda: memory.reading(device), series)
        after = memory.reading(device)
    return count, stopped_by, last, memory.growth(before, after, memory.held_bytes(last), count, series)


def orders(rng, count):
    """`count` pair orders, (0, 1) or (1, 0): each two consecutive pairs hold one of each, which first by a coin."""
    out = []
    while len(out) < count:
        block = [(0, 1), (1, 0)]
        if rng.random() < 0.5:
            block.reverse()
        out.extend(block)
    return out[:count]


def _pair_loop(calls, order, limits, out, timed, clock, read=lambda: None, readings=None):
    """Returns (count, stopped_by, the first side's last result); `out` holds the preallocated lists
    (ns per side, gc ns per side, ratio of the two per pair); `read()` is appended to `readings` after each
    pair's collections, off the clock (memory growth)."""
    ns, gc_ns, ratios = out
    spent = 0
    count = 0
    results = [None, None]
    since = _since_start(limits, clock)
    while True:
        # The previous pair's results are freed here, before this pair's first clock starts.
        results = [None, None]
        for side in order[count]:
            elapsed, results[side] = timed(calls[side], clock)
            ns[side][count] = elapsed
            gc_ns[side][count] = collect(clock)
            spent += elapsed + gc_ns[side][count]
        ratios[count] = ns[0][count] / ns[1][count] if ns[1][count] else float("inf")
        if readings is not None:
            readings.append(read())
        count += 1
        stopped_by = stop_reason(count, spent, ratios, limits, since())
        if stopped_by is not None:
            return count, stopped_by, results[0]


def sample_pairs(calls, order, limits, device, clock=time.perf_counter_ns):
    """Time the two `calls` in alternation, pair j in `order[j]`, until the limits (timing.stop_reason; the
    precision rule judges the per-pair ratios). Returns (count, stopped_by, ms per side, gc ms per side,
    first side's last result, the first side's memory growth per call). `clock` as in timing.sample."""
    size = limits.samples
    out = ([[0] * size, [0] * size], [[0] * size, [0] * size], [0.0] * size)
    # The loop returns only the first side's last result: the baseline's is freed by then.
    count, stopped_by, last, growth = _measured(_pair_loop, (calls, order, limits, out), device, clock)
    to_ms = lambda values: [v / 1e6 for v in values[:count]]  # noqa: E731
    return count, stopped_by, [to_ms(s) for s in out[0]], [to_ms(s) for s in out[1]], last, growth


def timed_pairs(request, run, baseline, device, rng, spent_s):
    """The tool against its baseline, after the import, within what is left of the budget once the block
    before it spent `spent_s`: (timing record of the tool, `paired` fields, the tool's last result)."""
    settings = request["settings"]
    limits = limits_of(settings, budget_s=max(0.0, settings["sampling_budget_s"] - spent_s))
    order = orders(rng, limits.samples)
    count, stopped_by, ms, gc_ms, last, growth = sample_pairs((run, baseline), order, limits, device)
    timing = {
        **timing_facts(device, settings["warmups"]),
        "samples_ms": ms[0],
        "gc_ms": gc_ms[0],
        "stopped_by": stopped_by,
        "memory_growth": growth,
    }
    paired = {"baseline_ms": ms[1], "baseline_gc_ms": gc_ms[1], "tool_first": [o == (0, 1) for o in order[:count]]}
    return timing, paired, last
