"""Paired timing (docs/protocol.md, "Pairing"): the tool's call and its baseline's, alternated pair by pair.

On a shared machine each process runs at a speed of its own (an offset of several percent that more samples
do not shrink), while calls timed close together in one process share it. So a tool cell's process also
times the baseline, the `raw` tool's function for the same contract, on its own copy of the model built from
the same seed (identical weights, checked), and every ratio is taken inside the process.

A process that pairs runs, in this order:
1. `build`: the tool's copy and the baseline's copy (`build_twin`); a builder that does not give the same
   weights twice makes the process unpaired, with the reason, rather than compare different models.
2. `reference`: as in every process, before any tool is imported.
3. `before`: the baseline alone on its copy, against torch as the harness left it, before the tool's
   import: as many warm-up calls as the tool gets (at least one), then as many samples as the pairs (the
   `raw` cell's own figures come from these blocks), so that the import tax compares a warm baseline
   with a warm baseline; the row's control processes then say what "later in the process" alone does.
4. the tool's import and prepare, then `warmup`: the tool's warm-up calls, as in an unpaired process.
5. `timed`: pairs of (tool, baseline). The import tax is then the baseline after / before the import.
The budget (`sampling_budget_s`) covers 3 and 5 together: the block before gets its share of the calls
(before / (before + 2 x samples)), at least two samples; the pairs what is left, at least `min_samples`.

Inside each pair the order is drawn from the request's seed, balanced in every two pairs (one of each
order, which first drawn by a seeded coin), so that an even number of pairs has as many of each order and
neither side always runs on what the other left in the caches. The pairs themselves are timed by
timing.py (`timed_pairs`, beside the unpaired loop), under the same GC policy for both sides: the collector
is off while sampling, one timed collection follows every call off the clock, and a pair's results are
dropped before the next pair's first clock starts.
"""

import dataclasses
import random

import torch

from . import adapters
from .context import resolve_site
from .subjects import build_subject
from .timing import Limits, limits_of, sample, warm_up


def _differences(a, b):
    """The first way two subjects differ (parameters, buffers, inputs, batches), or None when identical."""
    left, right = a.model.state_dict(), b.model.state_dict()
    if list(left) != list(right):
        return "the two copies have different parameter names"
    for name, tensor in left.items():
        if not torch.equal(tensor, right[name]):
            return f"{name} differs between the two copies"
    if not torch.equal(a.inputs, b.inputs) or len(a.batches) != len(b.batches):
        return "the inputs differ between the two copies"
    if any(not torch.equal(x, y) for x, y in zip(a.batches, b.batches)):
        return "the dataset batches differ between the two copies"
    return None


def build_twin(request, ctx, device):
    """(the baseline's ctx on its own copy of the subject, None) or (None, why the process cannot pair)."""
    twin = build_subject(request["subject"], device)
    seed = request["subject"]["model"]["seed"]
    why = _differences(ctx, twin)
    if why is not None:
        return None, f"the model built twice from seed {seed} is not the same: {why}"
    site_module = None
    if ctx.site is not None:
        _, site_module = resolve_site(twin.model, request["subject"]["sites"], request["contract"]["params"]["site"])
    # The site's shape, the steering direction and the final module were found on the tool's copy; the
    # baseline reads the same fields, so only what belongs to a copy is replaced.
    return dataclasses.replace(
        ctx, model=twin.model, inputs=twin.inputs, batches=twin.batches, site_module=site_module, notes=[]
    ), None


def baseline_function(request):
    """The baseline's contract function (the harness's own tool: a failure to import it is an error)."""
    baseline = request["pairing"]["baseline"]
    module = adapters.import_reference(baseline["module"])
    return adapters.contract_function(module, request["contract"]["kind"], f"baseline {baseline['tool']}", False)


def before_block(request, twin):
    """The baseline alone before the tool's import, on its own copy: the tool's number of warm-up calls (at
    least one: the first call after the build is often a cold outlier), then up to `before` samples within
    the block's share of the budget (its share of all the calls the process times), never fewer than two.
    Returns (the result's `before` object, the baseline's callable)."""
    settings, pairing = request["settings"], request["pairing"]
    baseline = baseline_function(request)(twin)
    warm_up(baseline, max(1, settings["warmups"]), twin.device)
    share = settings["sampling_budget_s"] * pairing["before"] / (pairing["before"] + 2 * settings["samples"])
    limits = limits_of(settings, samples=pairing["before"], budget_s=share)
    # Two samples at least, whatever min_samples says: the tax needs a median of more than one call. The
    # block's own limits only (count, floor, share of the budget, precision): any other is the tool's loop's.
    limits = Limits(limits.samples, min(2, limits.samples), limits.budget_ns, limits.precision)
    timing, _ = sample(baseline, settings, twin.device, limits)
    return {
        "baseline_ms": timing["samples_ms"],
        "baseline_gc_ms": timing["gc_ms"],
        "stopped_by": timing["stopped_by"],
    }, baseline


def new_rng(request):
    """The pair orders' generator, from the request's seed (recorded in the result)."""
    return random.Random(request["pairing"]["seed"])
