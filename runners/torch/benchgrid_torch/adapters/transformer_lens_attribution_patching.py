"""attribution_patching with TransformerLens's bridge (docs/contracts.md, "Decoder contracts"); exposed from
transformer_lens_.py; its `_Bridge` is transformer_lens_bridge.py's.

The idiom of TransformerLens's attribution-patching demo (demos/Attribution_Patching_Demo.ipynb,
`get_cache_fwd_and_bwd`): a clean `run_with_cache`, then on the corrupted tokens a forward hook and a backward
hook on every `hook_resid_post` keeping the activation and its gradient, and `metric.backward()`. That backward
reaches the parameters too (their .grad is filled): the witnesses mark it.
"""

import torch

from benchgrid_torch import decoders
from benchgrid_torch.adapters.transformer_lens_bridge import _Bridge


def attribution_patching(ctx):
    """run_with_cache on the clean tokens; forward and backward hooks on every block and `.backward()` on the corrupted."""
    paths = decoders.block_paths(ctx, "attribution_patching")
    wrapped = _Bridge(ctx)
    names = [wrapped.hook(path) for path in paths]
    bridge, clean, corrupted, params = wrapped.bridge, ctx.inputs, ctx.corrupted, ctx.params
    clean_mask, corrupted_mask = decoders.mask_kwargs(ctx.model, clean), decoders.mask_kwargs(ctx.model, corrupted)

    def run():
        with torch.no_grad():
            _, clean_cache = bridge.run_with_cache(clean, names_filter=names, **clean_mask)
        outputs, gradients = [None] * len(names), [None] * len(names)

        # Kept by index, not by hook.name: a block's hook point answers to its alias and to `hook_out`.
        def keep(activation, hook, i):
            outputs[i] = activation.detach()

        def keep_gradient(gradient, hook, i):
            gradients[i] = gradient.detach()

        fwd = [(name, lambda a, hook, i=i: keep(a, hook, i)) for i, name in enumerate(names)]
        bwd = [(name, lambda g, hook, i=i: keep_gradient(g, hook, i)) for i, name in enumerate(names)]
        # `hooks()`, not run_with_hooks: run_with_hooks removes its hooks when it returns, before the backward.
        with bridge.hooks(fwd_hooks=fwd, bwd_hooks=bwd):
            logits = bridge(corrupted, **corrupted_mask)
            decoders.logit_difference(logits, params).sum().backward()
        return decoders.attribution_patching([clean_cache[name] for name in names], outputs, gradients)

    return run
