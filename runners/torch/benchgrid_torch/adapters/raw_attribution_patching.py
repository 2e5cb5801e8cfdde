"""attribution_patching's floor (docs/contracts.md, "Decoder contracts"); exposed from raw.py. Not comparable."""

import torch

from benchgrid_torch import decoders


def attribution_patching(ctx):
    """The clean forward and the corrupted one, and the logit difference's backward to the token embedding matrix
    (the parameter every block's gradient flows back to; no .grad filled): nothing attached, nothing read."""
    model, clean, corrupted, params = ctx.model, ctx.inputs, ctx.corrupted, ctx.params
    embedding = model.get_input_embeddings().weight

    def run():
        with torch.no_grad():
            model(clean)
        logits = model(corrupted)
        (gradient,) = torch.autograd.grad(decoders.logit_difference(logits, params).sum(), embedding)
        return gradient

    return run
