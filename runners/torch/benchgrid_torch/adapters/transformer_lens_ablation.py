"""TransformerLens 4 (TransformerBridge): logit_lens and the ablations (docs/contracts.md, "Methods").

The idioms of TransformerLens's docs: `run_with_cache` filtered to every block's `hook_resid_post`, each residual
passed through the bridge's own `ln_final` and `unembed` (the logit lens of the main demo; `cache.accumulated_resid(
apply_ln=True)` is not used: it divides every layer by the final layer's cached scale instead of normalising each
residual, another quantity than the contract's); `run_with_hooks` with a hook returning zeros or the mean
(the ablation demos); a head is ablated at its `attn.hook_z` ([batch, pos, head, d_head]), `z[:, :, head] = 0`,
the head-ablation hook of the main demo.
"""

import torch

from benchgrid_torch import ablation, decoders

from .transformer_lens_ import _Bridge, _site


def logit_lens(ctx):
    """Every block's `hook_resid_post` from one `run_with_cache`, at the last position, through `ln_final` and
    `unembed`."""
    blocks = ablation.lens_blocks(ctx)
    wrapped = _Bridge(ctx)
    names = [wrapped.hook(f"{ctx.site}.{i}") for i in range(len(blocks))]
    bridge, x = wrapped.bridge, ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        _, cache = bridge.run_with_cache(x, **mask, names_filter=names)
        return ablation.lens([ablation.last(cache[name]) for name in names], bridge.ln_final, bridge.unembed)

    return run


def _ablated(ctx, point, replacement):
    """run() of the logits of `run_with_hooks` with a hook returning replacement(activation) at `point`, a
    (bridge, hook point name) pair."""
    (bridge, name), x = point, ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)

    def hook(activation, hook):
        return replacement(activation)

    def run():
        return bridge.run_with_hooks(x, **mask, fwd_hooks=[(name, hook)])

    return run


def zero_ablation(ctx):
    """The logits of `run_with_hooks` with a hook on the site's hook point returning zeros."""
    return _ablated(ctx, _site(ctx), torch.zeros_like)


def mean_ablation(ctx):
    """The site's activation from one `run_with_cache` per dataset batch (in prepare), averaged; then the logits of
    `run_with_hooks` with a hook returning that mean at every position."""
    bridge, hook_name = _site(ctx)
    kept = []
    for batch in ctx.batches:
        _, cache = bridge.run_with_cache(batch, names_filter=hook_name, **decoders.mask_kwargs(ctx.model, batch))
        kept.append(cache[hook_name])
    mean = ablation.position_mean(kept, ctx.batches, ctx.model)
    return _ablated(ctx, (bridge, hook_name), lambda activation: ablation.mean_like(mean, activation))


def head_ablation(ctx):
    """The logits of `run_with_hooks` with a hook on the attention's `hook_z` zeroing the head."""
    _, _, head, _ = ablation.attention_heads(ctx)
    wrapped = _Bridge(ctx)
    name = f"{wrapped.component(ctx.site)}.hook_z"
    if name not in wrapped.bridge.hook_dict:
        ctx.unsupported(f"{ctx.site!r} is not an attention module: the bridge has no hook_z there")

    def zero(z):
        z[:, :, head] = 0
        return z

    return _ablated(ctx, (wrapped.bridge, name), zero)
