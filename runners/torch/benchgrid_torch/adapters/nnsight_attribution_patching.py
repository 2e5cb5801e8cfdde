"""attribution_patching with nnsight 0.8 (docs/contracts.md, "Decoder contracts"); exposed from nnsight_.py.

nnsight's attribution-patching tutorial (nnsight.net, "Attribution Patching") in the 0.8 API: the clean run's
block outputs saved from one trace, then a trace on the corrupted input saving its block outputs and, inside
`with metric.backward():`, their `.grad`. nnsight serves gradients in the order the backward produces them, so
they are read from the last block to the first. That backward reaches the parameters too (their .grad is
filled): the witnesses mark it.
"""

from nnsight import NNsight

from benchgrid_torch import decoders, traces

from .nnsight_ import _logits


def attribution_patching(ctx):
    """Two traces, the second with the metric's backward reading every block's gradient, last block first."""
    paths = decoders.block_paths(ctx, "attribution_patching")
    model = NNsight(ctx.model)
    blocks = [traces.Envoy(model.get(path)) for path in paths]
    clean, corrupted, params = ctx.inputs, ctx.corrupted, ctx.params
    return traces.attribution_patching(model, blocks, _logits, clean, corrupted, params)
