"""torchlens `tl.when(site, action).bind(model)`: a capture-free executor applying an edit on every call."""

import torch
import torchlens as tl


def replacement_edit(ctx):
    """Logits from a binding that zero-ablates the site (bound once in prepare)."""
    bound = tl.when(tl.module(ctx.site), tl.zero_ablate()).bind(ctx.model)
    x = ctx.inputs

    def run():
        return bound(x)

    return run


def repeated_steering(ctx):
    """Stacked logits, one binding per strength s steering the site by s * direction (bound in prepare)."""
    site = tl.module(ctx.site)
    bindings = [tl.when(site, tl.steer(ctx.direction, magnitude=s)).bind(ctx.model) for s in ctx.strengths]
    x = ctx.inputs

    def run():
        return torch.stack([bound(x) for bound in bindings])

    return run
