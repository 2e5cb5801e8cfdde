"""torchlens `tl.trace` with sparse selectors: logit_lens and the component ablations (docs/contracts.md, "Methods").

The lens saves every block's output in one trace (a union of module selectors) and applies the final norm and the
unembedding by hand, torchlens having no lens of its own. The ablations are `intervene=` specs:
`tl.when(site, tl.zero_ablate())` and `tl.when(site, tl.replace_with(mean))`, the mean from a sparse trace of each
dataset batch (torchlens's `tl.mean_ablate()` fills with one scalar, the global mean of the value, not the
contract's per-feature mean over the dataset). A head's output is an op inside the attention module's forward,
which no module selector names: head_ablation is reasoned out in the specs.
"""

import functools
import operator

import torchlens as tl

from benchgrid_torch import ablation

from .torchlens_trace_sparse import _saved, _selectors


def logit_lens(ctx):
    """Every block's output saved by one trace, at the last position, through the final norm and unembedding."""
    blocks = ablation.lens_blocks(ctx)
    selectors = [tl.module(f"{ctx.site}.{i}") for i in range(len(blocks))]
    every = functools.reduce(operator.or_, selectors)
    (_, norm), (_, unembed) = ablation.final_norm(ctx), ablation.unembedding(ctx)
    model, x = ctx.model, ctx.inputs

    def run():
        trace = tl.trace(model, x, save=every)
        return ablation.lens([ablation.last(_saved(trace, s)) for s in selectors], norm, unembed)

    return run


def zero_ablation(ctx):
    """Logits of a trace whose `intervene=` spec zero-ablates the site."""
    model, x, site, logits = _selectors(ctx)
    spec = tl.when(site, tl.zero_ablate())
    return lambda: _saved(tl.trace(model, x, save=logits, intervene=spec), logits)


def mean_ablation(ctx):
    """The site's output from a sparse trace of each dataset batch (in prepare), averaged; then the logits of a
    trace whose `intervene=` spec replaces the site's output by that mean at every position."""
    model, x, site, logits = _selectors(ctx)
    kept = [_saved(tl.trace(model, batch, save=site), site) for batch in ctx.batches]
    mean = ablation.position_mean(kept, ctx.batches, ctx.model)
    # replace_with takes a tensor of the output's shape: read once from a sparse trace of the batch.
    shape = _saved(tl.trace(model, x, save=site), site).shape
    spec = tl.when(site, tl.replace_with(mean.expand(shape).clone()))
    return lambda: _saved(tl.trace(model, x, save=logits, intervene=spec), logits)
