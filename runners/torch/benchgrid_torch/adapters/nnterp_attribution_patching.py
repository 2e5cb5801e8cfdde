"""attribution_patching with nnterp 1.3.0 (docs/contracts.md, "Decoder contracts"); exposed from nnterp_.py.

nnterp has no gradient helper of its own; its `layers_output[i]` accessors inside nnsight's backward idiom
(`with metric.backward(): ... .grad`, which nnterp inherits from nnsight 0.7, as its same_site_gradient row
does): a trace on the clean tokens saving every layer's output, then one on the corrupted tokens reading their
gradients from the last layer to the first (the order the backward produces them). That backward reaches the
parameters too (their .grad is filled): the witnesses mark it.
"""

import torch

from benchgrid_torch import decoders
from benchgrid_torch.adapters.nnterp_ import _load


def attribution_patching(ctx):
    """Two traces over `model.layers_output`, the second with the metric's backward."""
    if ctx.blocks is None or ctx.blocks != decoders.recorded_blocks(ctx.model):
        ctx.unsupported(f"attribution_patching reads the model's blocks (nnterp's layers); {ctx.site!r} is not that list")
    model, clean, corrupted, params = _load(ctx), ctx.inputs, ctx.corrupted, ctx.params

    def run():
        with torch.no_grad(), model.trace(clean):
            clean_outputs = list().save()
            for i in range(model.num_layers):
                clean_outputs.append(model.layers_output[i])
        with model.trace(corrupted):
            outputs = list().save()
            for i in range(model.num_layers):
                outputs.append(model.layers_output[i])
            metric = decoders.logit_difference(model.logits, params).sum()
            gradients = list().save()
            with metric.backward():
                for output in reversed(outputs):
                    gradients.append(output.grad)
        return decoders.attribution_patching(clean_outputs, [o.detach() for o in outputs], gradients[::-1])

    return run
