"""attribution_patching by forward hooks, the reference (docs/contracts.md, "Decoder contracts").

A forward hook on every block keeps its output; the clean run's under no_grad, the corrupted run's inside the
autograd graph, and one `torch.autograd.grad` of the corrupted run's logit difference with respect to all of
them (no parameter .grad filled). Exposed from hooks.py.
"""

import torch

from benchgrid_torch import decoders


def _forward_keeping_blocks(model, blocks, x):
    """(every block's output in block order, logits) from one forward with a hook on each block."""
    kept = [None] * len(blocks)
    handles = [block.register_forward_hook(lambda _m, _a, output, i=i: kept.__setitem__(i, decoders.first(output)))
               for i, block in enumerate(blocks)]
    try:
        logits = model(x)
    finally:
        for handle in handles:
            handle.remove()
    return kept, logits


def attribution_patching(ctx):
    """Clean block outputs, corrupted block outputs and logits, then one autograd.grad of the summed logit difference."""
    model, blocks, clean, corrupted, params = ctx.model, ctx.blocks, ctx.inputs, ctx.corrupted, ctx.params
    if blocks is None:
        ctx.unsupported(f"attribution_patching reads a ModuleList of blocks; {ctx.site!r} is not one")

    def run():
        with torch.no_grad():
            clean_outputs, _ = _forward_keeping_blocks(model, blocks, clean)
        outputs, logits = _forward_keeping_blocks(model, blocks, corrupted)
        gradients = torch.autograd.grad(decoders.logit_difference(logits, params).sum(), outputs)
        return decoders.attribution_patching(clean_outputs, [o.detach() for o in outputs], gradients)

    return run
