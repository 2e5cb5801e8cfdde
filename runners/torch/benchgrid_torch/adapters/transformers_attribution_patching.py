"""attribution_patching with transformers' own output flag (docs/contracts.md, "Decoder contracts"); exposed from
transformers_.py.

`output_hidden_states=True` returns every block's output as the tensor the next module consumed, inside the
autograd graph, so `torch.autograd.grad` of the corrupted run's logit difference with respect to
`hidden_states[1:]` is the gradient at every block (no parameter .grad filled).
"""

import torch
from benchgrid_harness.subjects import native_model

from benchgrid_torch import decoders
from benchgrid_torch.adapters.transformers_ import _untie_last


def attribution_patching(ctx):
    """hidden_states[1:] of a clean call (no_grad) and of a corrupted call, then one autograd.grad."""
    if ctx.blocks is None or ctx.blocks != decoders.recorded_blocks(ctx.model):
        ctx.unsupported(
            f"output_hidden_states returns the outputs of the model's blocks; {ctx.site!r} is not that list"
        )
    _untie_last(ctx)
    model, clean, corrupted, params = native_model(ctx.model), ctx.inputs, ctx.corrupted, ctx.params
    clean_mask, corrupted_mask = decoders.mask_kwargs(ctx.model, clean), decoders.mask_kwargs(ctx.model, corrupted)

    def run():
        with torch.no_grad():
            clean_outputs = model(clean, output_hidden_states=True, **clean_mask).hidden_states[1:]
        out = model(corrupted, output_hidden_states=True, **corrupted_mask)
        outputs = out.hidden_states[1:]
        gradients = torch.autograd.grad(decoders.logit_difference(out.logits, params).sum(), outputs)
        return decoders.attribution_patching(clean_outputs, [o.detach() for o in outputs], gradients)

    return run
