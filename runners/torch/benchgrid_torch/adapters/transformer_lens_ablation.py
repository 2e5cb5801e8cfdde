"""TransformerLens 4 (TransformerBridge): logit_lens and the ablations (docs/contracts.md, "Methods").

The idioms of TransformerLens's docs: `run_with_cache` filtered to every block's `hook_resid_post`, each residual
passed through the bridge's own `ln_final` and `unembed` (the logit lens of the main demo; `cache.accumulated_resid(
apply_ln=True)` is not used: it divides every layer by the final layer's cached scale instead of normalising each
residual, another quantity than the contract's); `run_with_hooks` with a hook returning zeros or the mean
(the ablation demos); a head is ablated at its `attn.hook_z` ([batch, pos, head, d_head]), `z[:, :, head] = 0`,
the head-ablation hook of the main demo.
"""

from benchgrid_torch import ablation, decoders

from .transformer_lens_ import replacement_edit
from .transformer_lens_bridge import _Bridge, _cached, _hooked, _site


def logit_lens(ctx):
    """Every block's `hook_resid_post` from one `run_with_cache`, at the last position, through `ln_final` and
    `unembed`."""
    paths = decoders.block_paths(ctx, "logit_lens")
    wrapped = _Bridge(ctx)
    names = [wrapped.hook(path) for path in paths]
    bridge, cached = wrapped.bridge, _cached(ctx, wrapped.bridge, names)

    def run():
        cache = cached()[1]
        return ablation.lens([ablation.last(cache[name]) for name in names], bridge.ln_final, bridge.unembed)

    return run


def zero_ablation(ctx):
    """The logits of `run_with_hooks` with a hook on the site's hook point returning zeros: replacement_edit's call."""
    return replacement_edit(ctx)


def mean_ablation(ctx):
    """The site's activation from one `run_with_cache` per dataset batch (in prepare), averaged; then the logits of
    `run_with_hooks` with a hook returning that mean at every position."""
    bridge, hook_name = _site(ctx)
    kept = [_cached(ctx, bridge, hook_name, batch)()[1][hook_name] for batch in ctx.batches]
    mean = ablation.position_mean(kept, ctx.batches, ctx.model)
    return _hooked(ctx, bridge, hook_name, lambda activation: ablation.mean_like(mean, activation))


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

    return _hooked(ctx, wrapped.bridge, name, zero)
