"""attribution_patching with nnsight 0.8 (docs/contracts.md, "Decoder contracts"); exposed from nnsight_.py.

nnsight's attribution-patching tutorial (nnsight.net, "Attribution Patching") in the 0.8 API: the clean run's
block outputs saved from one trace, then a trace on the corrupted input saving its block outputs and, inside
`with metric.backward():`, their `.grad`. nnsight serves gradients in the order the backward produces them, so
they are read from the last block to the first. That backward reaches the parameters too (their .grad is
filled): the witnesses mark it.
"""

import torch
from nnsight import NNsight

from benchgrid_torch import decoders


def attribution_patching(ctx):
    """Two traces, the second with the metric's backward reading every block's gradient, last block first."""
    if ctx.blocks is None:
        ctx.unsupported(f"attribution_patching reads a ModuleList of blocks; {ctx.site!r} is not one")
    model = NNsight(ctx.model)
    blocks = [model.get(f"{ctx.site}.{i}") for i in range(len(ctx.blocks))]
    clean, corrupted, params = ctx.inputs, ctx.corrupted, ctx.params

    def run():
        with torch.no_grad(), model.trace(clean):
            # A list saved once and appended to, as nnsight's docs collect per-layer values.
            clean_outputs = list().save()
            for block in blocks:
                clean_outputs.append(decoders.first(block.output))
        with model.trace(corrupted):
            outputs = list().save()
            for block in blocks:
                outputs.append(decoders.first(block.output))
            metric = decoders.logit_difference(model.output, params).sum()
            gradients = list().save()
            with metric.backward():
                for output in reversed(outputs):
                    gradients.append(output.grad)
        return decoders.attribution_patching(clean_outputs, [o.detach() for o in outputs], gradients[::-1])

    return run
