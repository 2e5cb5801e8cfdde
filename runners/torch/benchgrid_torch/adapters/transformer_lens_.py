"""TransformerLens 4: a `TransformerBridge` over the decoder, read and edited at the hook point of the site.

Every site a user can name on a supported decoder is reached: the bridge wraps each transformers module it
knows (embeddings, blocks, their attention, MLP, norms and linear layers) in a component whose `hook_out`
sees that module's output, and the adapter uses TransformerLens's own name for that hook where it has one
(`blocks.1.hook_resid_post` for a block, `blocks.1.hook_mlp_out`, `blocks.1.hook_attn_out`, `hook_embed`,
`blocks.1.mlp.hook_pre`), else the component's `hook_out`. The idioms are those of TransformerLens's docs:
`run_with_cache(..., names_filter=...)`, `run_with_hooks(..., fwd_hooks=[(name, fn)])`, `hooks(bwd_hooks=...)`,
and the activation-patching tutorial's clean cache plus patching hook. The bridge, its hook names and the two
calls most contracts make (`run_with_cache` and `run_with_hooks` on the inputs) are in transformer_lens_bridge.py.
"""

import torch

from benchgrid_torch import decoders

from .transformer_lens_bridge import _Bridge, _cached, _hooked, _site


def single_module_output(ctx):
    """The site's output from a whole `run_with_cache` forward caching only the site's hook."""
    bridge, hook_name = _site(ctx)
    cached = _cached(ctx, bridge, hook_name)
    return lambda: cached()[1][hook_name]


def site_output_stopped(ctx):
    """The site's output from `run_with_cache`, stopping after the site's block (`stop_at_layer`)."""
    bridge, hook_name = _site(ctx)
    place = decoders.block_of(ctx.model, ctx.site)
    if place is None:
        ctx.unsupported(f"stop_at_layer stops after a block; {ctx.site!r} is not inside one")
    cached = _cached(ctx, bridge, hook_name, stop_at_layer=place[0] + 1)
    return lambda: cached()[1][hook_name]


def matched_retained(ctx):
    """(site output, logits) from one `run_with_cache` caching only the site's hook."""
    bridge, hook_name = _site(ctx)
    cached = _cached(ctx, bridge, hook_name)

    def run():
        logits, cache = cached()
        return cache[hook_name], logits

    return run


def replacement_edit(ctx):
    """Logits with a forward hook replacing the site's output by zeros."""
    return _hooked(ctx, *_site(ctx), torch.zeros_like)


def repeated_steering(ctx):
    """Stacked logits, one `run_with_hooks` per strength s adding s * direction to the site's output."""
    bridge, hook_name = _site(ctx)
    x, direction, strengths = ctx.inputs, ctx.direction, ctx.strengths
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        steered = []
        for s in strengths:

            def steer(activation, hook, s=s):
                return activation + s * direction

            steered.append(bridge.run_with_hooks(x, **mask, fwd_hooks=[(hook_name, steer)]))
        return torch.stack(steered)

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output), kept by a backward hook on the site's hook point."""
    bridge, hook_name = _site(ctx)
    x, target = ctx.inputs, ctx.target
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        kept = []

        def keep(gradient, hook):
            kept.append(gradient)

        # bwd_hooks in `hooks()`, not run_with_hooks: run_with_hooks removes the hooks it added when it
        # returns (reset_hooks_end, model_bridge/bridge_core.py), before the caller's backward runs.
        with bridge.hooks(bwd_hooks=[(hook_name, keep)]):
            logits = bridge(x, **mask)
            logits[:, target].sum().backward()
        return kept[0]

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, one whole `run_with_cache` per batch, concatenated."""
    bridge, hook_name = _site(ctx)
    calls = [_cached(ctx, bridge, hook_name, batch) for batch in ctx.batches]
    return lambda: torch.cat([call()[1][hook_name] for call in calls])


def residual_cache(ctx):
    """`run_with_cache` filtered to every block's `hook_resid_post`, stacked in block order."""
    paths = decoders.block_paths(ctx, "residual_cache")
    wrapped = _Bridge(ctx)
    names = [wrapped.hook(path) for path in paths]
    cached = _cached(ctx, wrapped.bridge, names)

    def run():
        cache = cached()[1]
        return torch.stack([cache[name] for name in names])

    return run


def attention_pattern(ctx):
    """The attention component's `hook_pattern` from `run_with_cache`. The bridge computes the pattern itself
    (its attention component materialises it), so no switch to eager attention is needed."""
    wrapped = _Bridge(ctx)
    name = f"{wrapped.component(ctx.site)}.hook_pattern"
    if name not in wrapped.bridge.hook_dict:
        ctx.unsupported(f"{ctx.site!r} is not an attention module: the bridge has no hook_pattern there")
    cached = _cached(ctx, wrapped.bridge, name)
    return lambda: cached()[1][name]


def activation_patching(ctx):
    """The activation-patching tutorial's step: a clean `run_with_cache`, then `run_with_hooks` on the corrupted
    tokens with a hook writing the clean activation at one position."""
    bridge, hook_name = _site(ctx)
    corrupted, position = ctx.corrupted, int(ctx.params["position"])
    cached, corrupted_mask = _cached(ctx, bridge, hook_name), decoders.mask_kwargs(ctx.model, corrupted)

    def run():
        clean_cache = cached()[1]

        def patch(activation, hook):
            return decoders.patched(activation, clean_cache[hook.name], position)

        logits = bridge.run_with_hooks(corrupted, fwd_hooks=[(hook_name, patch)], **corrupted_mask)
        return decoders.logit_difference(logits, ctx.params)

    return run


def steered_generation(ctx):
    """`bridge.generate` (greedy, its own KV cache) inside `bridge.hooks(fwd_hooks=...)` adding the vector."""
    bridge, hook_name = _site(ctx)
    x, add = ctx.inputs, decoders.steering(ctx)
    # Padded prompts: generate takes the prompts' mask and derives the positions itself.
    prompt_mask = {"attention_mask": mask["attention_mask"]} if (mask := decoders.mask_kwargs(ctx.model, x)) else {}

    def steer(activation, hook):
        return activation + add

    def generate(use_past_kv_cache=True):
        with bridge.hooks(fwd_hooks=[(hook_name, steer)]):
            return bridge.generate(
                x,
                max_new_tokens=decoders.NEW_TOKENS,
                do_sample=False,
                stop_at_eos=False,
                verbose=False,
                use_past_kv_cache=use_past_kv_cache,
                **prompt_mask,
            )

    # Untimed, before the samples: the timed call is the idiom (the KV cache on, generate's default), and where
    # its tokens are not those of the same generation without the cache, the result says from which new token
    # on. With transformer-lens 4.3.0 and transformers 5.24 that is the case on the Llama architecture from the
    # second new token (the uncached tokens are transformers' own there; GPT-2 and GPT-NeoX agree), so that
    # cell's mismatch is reported with its cause (docs/contracts.md, Decoder contracts).
    cached, uncached = generate(), generate(use_past_kv_cache=False)
    if not torch.equal(cached, uncached):
        parted = int((cached != uncached).any(dim=0).nonzero()[0]) - x.shape[1] + 1
        ctx.note(
            f"bridge.generate's tokens with its KV cache (the default, timed here) part from those with "
            f"use_past_kv_cache=False at new token {parted} of {decoders.NEW_TOKENS}"
        )

    return generate


def sae_encode(ctx):
    """The site's activation from `run_with_cache`, encoded by the autoencoder's arithmetic written out."""
    bridge, hook_name = _site(ctx)
    cached, sae = _cached(ctx, bridge, hook_name), ctx.sae
    return lambda: decoders.sae_encode(cached()[1][hook_name], sae)


def generated_token_attribution(ctx):
    """The greedy step through the bridge, then a forward whose hook keeps the site's activation, and
    torch.autograd.grad of the token's probability: input x gradient."""
    bridge, hook_name = _site(ctx)
    x = ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        with torch.no_grad():
            token = bridge(x, **mask)[:, -1].argmax(dim=-1)
        kept = []

        def keep(activation, hook):
            kept.append(activation)

        logits = bridge.run_with_hooks(x, **mask, fwd_hooks=[(hook_name, keep)])
        (gradient,) = torch.autograd.grad(decoders.next_token_probability(logits, token), kept[0])
        return kept[0].detach() * gradient

    return run


from .transformer_lens_attribution_patching import attribution_patching  # noqa: E402,F401
from .transformer_lens_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
