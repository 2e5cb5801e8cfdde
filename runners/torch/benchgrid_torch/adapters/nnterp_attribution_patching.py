"""attribution_patching with nnterp 1.3.0 (docs/contracts.md, "Decoder contracts"); exposed from nnterp_.py.

nnterp has no gradient helper of its own; its `layers_output[i]` accessors inside nnsight's backward idiom
(`with metric.backward(): ... .grad`, which nnterp inherits from nnsight 0.7, as its same_site_gradient row
does): a trace on the clean tokens saving every layer's output, then one on the corrupted tokens reading their
gradients from the last layer to the first (the order the backward produces them). That backward reaches the
parameters too (their .grad is filled): the witnesses mark it.
"""

from benchgrid_torch import traces
from benchgrid_torch.adapters.nnterp_ import _layers, _logits


def attribution_patching(ctx):
    """Two traces over `model.layers_output`, the second with the metric's backward."""
    model, layers = _layers(ctx, "attribution_patching")
    clean, corrupted, params = ctx.inputs, ctx.corrupted, ctx.params
    return traces.attribution_patching(model, layers, _logits, clean, corrupted, params)
