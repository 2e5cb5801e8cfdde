"""Forward hooks, the reference of the decoder contracts (docs/contracts.md, "Decoder contracts"); exposed from
hooks.py, whose site hooks it uses. The arithmetic shared with other adapters is in benchgrid_torch/decoders.py, so
that what every tool computes is written once. Hooks are removed after every call."""

import torch
from benchgrid_harness.hooked import with_hooks
from benchgrid_harness.subjects import native_model

from benchgrid_torch import decoders
from benchgrid_torch.site_output import first, replace_first

from .hooks import _forward_editing_site, _forward_keeping_site


def forward_keeping_blocks(model, blocks, x, keep=decoders.first):
    """([keep(block output) for every block, in block order], logits) from one forward with a hook on each block."""
    kept = [None] * len(blocks)
    handles = [
        block.register_forward_hook(lambda _m, _a, output, i=i: kept.__setitem__(i, keep(output)))
        for i, block in enumerate(blocks)
    ]
    return kept, with_hooks(handles, model, x)


def residual_cache(ctx):
    """Each block's output from one forward, a hook on every block of the ModuleList site, stacked in block order."""
    model, blocks, x = ctx.model, decoders.blocks(ctx, "residual_cache"), ctx.inputs

    def run():
        return torch.stack(forward_keeping_blocks(model, blocks, x)[0])

    return run


def attention_pattern(ctx):
    """The attention module's probabilities (its output's second element) under eager attention, from one forward."""
    decoders.eager(ctx.model)
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        return _forward_keeping_site(model, site, x)[0][1]

    return run


def activation_patching(ctx):
    """A clean forward keeping the site's output, then the corrupted forward with one position patched from it."""
    return patching(ctx, _forward_editing_site)


def patching(ctx, forward_editing):
    """activation_patching's run() with `forward_editing(model, site, x, edit)` as the corrupted forward (a test
    fixture hands in one that drops the edit)."""
    model, site, clean, corrupted = ctx.model, ctx.site_module, ctx.inputs, ctx.corrupted
    position = int(ctx.params["position"])

    def run():
        kept = first(_forward_keeping_site(model, site, clean)[0])
        logits = forward_editing(model, site, corrupted, lambda out: decoders.patched(out, kept, position))
        return decoders.logit_difference(logits, ctx.params)

    return run


def steered_generation(ctx):
    """transformers' greedy `generate` with a forward hook adding strength * vector to the site at every step."""
    native, site, x = native_model(ctx.model), ctx.site_module, ctx.inputs
    add = decoders.steering(ctx)

    def run():
        handle = site.register_forward_hook(lambda _m, _a, output: replace_first(output, first(output) + add))
        return with_hooks([handle], native.generate, x, **decoders.generate_kwargs(ctx.model, x))

    return run


def sae_encode(ctx):
    """The site's output from one forward, encoded by the sparse autoencoder's arithmetic written out."""
    model, site, x, sae = ctx.model, ctx.site_module, ctx.inputs, ctx.sae

    def run():
        return decoders.sae_encode(first(_forward_keeping_site(model, site, x)[0]), sae)

    return run


def generated_token_attribution(ctx):
    """A greedy step picks the next token; a second forward keeps the site's output, and
    torch.autograd.grad of that token's probability gives input x gradient at the site (no parameter gradients)."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        with torch.no_grad():
            token = model(x)[:, -1].argmax(dim=-1)
        site_output, logits = _forward_keeping_site(model, site, x)
        activation = first(site_output)
        (gradient,) = torch.autograd.grad(decoders.next_token_probability(logits, token), activation)
        return activation.detach() * gradient

    return run
