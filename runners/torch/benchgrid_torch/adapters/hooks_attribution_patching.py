"""attribution_patching by forward hooks, the reference (docs/contracts.md, "Decoder contracts").

A forward hook on every block keeps its output; the clean run's under no_grad, the corrupted run's inside the
autograd graph, and one `torch.autograd.grad` of the corrupted run's logit difference with respect to all of
them (no parameter .grad filled). Exposed from hooks.py.
"""

import torch

from benchgrid_torch import decoders

from .hooks_decoders import forward_keeping_blocks


def attribution_patching(ctx):
    """Clean block outputs, corrupted block outputs and logits, then one autograd.grad of the summed logit difference."""
    model, clean, corrupted, params = ctx.model, ctx.inputs, ctx.corrupted, ctx.params
    blocks = decoders.blocks(ctx, "attribution_patching")

    def run():
        with torch.no_grad():
            clean_outputs, _ = forward_keeping_blocks(model, blocks, clean)
        outputs, logits = forward_keeping_blocks(model, blocks, corrupted)
        gradients = torch.autograd.grad(decoders.logit_difference(logits, params).sum(), outputs)
        return decoders.attribution_patching(clean_outputs, [o.detach() for o in outputs], gradients)

    return run
