"""TransformerLens 4: a `TransformerBridge` over the decoder, read and edited at the hook point of the site.

Every site a user can name on a supported decoder is reached: the bridge wraps each transformers module it
knows (embeddings, blocks, their attention, MLP, norms and linear layers) in a component whose `hook_out`
sees that module's output, and the adapter uses TransformerLens's own name for that hook where it has one
(`blocks.1.hook_resid_post` for a block, `blocks.1.hook_mlp_out`, `blocks.1.hook_attn_out`, `hook_embed`,
`blocks.1.mlp.hook_pre`), else the component's `hook_out`. The idioms are those of TransformerLens's docs:
`run_with_cache(..., names_filter=...)`, `run_with_hooks(..., fwd_hooks=[(name, fn)])`, `hooks(bwd_hooks=...)`,
and the activation-patching tutorial's clean cache plus patching hook.
"""

import copy

import torch
from benchgrid_harness.subjects import native_model
from transformer_lens.factories.architecture_adapter_factory import SUPPORTED_ARCHITECTURES
from transformer_lens.model_bridge.sources import build_bridge_from_module

from benchgrid_torch import decoders

# The seed's reason (reference/resnet18_gpu.results.json) for subjects TransformerLens does not cover.
NOT_A_DECODER = ("TransformerLens reimplements its supported decoder families; generic subjects are not among "
                 "them (decoders are measured in the mech-interp workloads)")


def _architecture(model):
    """The transformers class name the bridge has an adapter for (the subject's class or one of its bases)."""
    return next((cls.__name__ for cls in type(model).__mro__ if cls.__name__ in SUPPORTED_ARCHITECTURES), None)


def _component_names(bridge):
    """id(original transformers module) -> the bridge component's name (`blocks.1.mlp`)."""
    names = {}
    for name, module in bridge.named_modules(remove_duplicate=False):
        original = getattr(module, "original_component", None)
        if original is not None and "_original_component" not in name and id(original) not in names:
            names[id(original)] = name
    return names


def _hook_name(bridge, component):
    """TransformerLens's own name for the component's output hook (an alias such as hook_resid_post), else hook_out."""
    point = bridge.hook_dict[f"{component}.hook_out"]
    aliases = [name for name, hook in bridge.hook_dict.items() if hook is point and not name.endswith(".hook_out")]
    return aliases[0] if aliases else f"{component}.hook_out"


class _Bridge:
    """The bridge over a copy of the subject, and the component that wraps each module of the subject."""

    def __init__(self, ctx):
        architecture = _architecture(ctx.model)
        if architecture is None:
            ctx.unsupported(NOT_A_DECODER)
        # build_bridge_from_module wraps an already-built model with no hub access (boot_transformers would fetch
        # the tokenizer by name). It replaces the model's submodules in place, so it gets a copy and the
        # harness's model stays the one the reference ran.
        # The copy has transformers' own forward (`native_model`): the bridge calls it with keyword arguments
        # (use_cache, attention_mask, ...) that the harness's narrowed forward does not take.
        copied = copy.deepcopy(native_model(ctx.model))
        modules = dict(copied.named_modules())
        self.bridge = build_bridge_from_module(copied, architecture, hf_config=ctx.model.config)
        names = _component_names(self.bridge)
        self.components = {path: names[id(module)] for path, module in modules.items() if id(module) in names}
        self.ctx = ctx

    def component(self, path):
        """The bridge component wrapping the module at `path`, or unsupported naming the site."""
        name = self.components.get(path)
        if name is None:
            module = self.ctx.model.get_submodule(path)
            self.ctx.unsupported(f"TransformerLens's bridge has no component for {path!r} (a {type(module).__name__}): "
                                 "it wraps the embeddings, the blocks, and their attention, MLP, norms and linear layers")
        return name

    def hook(self, path=None):
        """The hook point name that sees the output of the module at `path` (default: the site)."""
        return _hook_name(self.bridge, self.component(path or self.ctx.site))


def _site(ctx):
    """(bridge, hook name of the site)."""
    wrapped = _Bridge(ctx)
    return wrapped.bridge, wrapped.hook()


def single_module_output(ctx):
    """The site's output from a whole `run_with_cache` forward caching only the site's hook."""
    bridge, hook_name = _site(ctx)
    x = ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        _, cache = bridge.run_with_cache(x, **mask, names_filter=hook_name)
        return cache[hook_name]

    return run


def site_output_stopped(ctx):
    """The site's output from `run_with_cache`, stopping after the site's block (`stop_at_layer`)."""
    bridge, hook_name = _site(ctx)
    place = decoders.block_of(ctx.model, ctx.site)
    if place is None:
        ctx.unsupported(f"stop_at_layer stops after a block; {ctx.site!r} is not inside one")
    x, stop = ctx.inputs, place[0] + 1
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        _, cache = bridge.run_with_cache(x, **mask, names_filter=hook_name, stop_at_layer=stop)
        return cache[hook_name]

    return run


def matched_retained(ctx):
    """(site output, logits) from one `run_with_cache` caching only the site's hook."""
    bridge, hook_name = _site(ctx)
    x = ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        logits, cache = bridge.run_with_cache(x, **mask, names_filter=hook_name)
        return cache[hook_name], logits

    return run


def replacement_edit(ctx):
    """Logits with a forward hook replacing the site's output by zeros."""
    bridge, hook_name = _site(ctx)
    x = ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def zero(activation, hook):
        return torch.zeros_like(activation)

    def run():
        return bridge.run_with_hooks(x, **mask, fwd_hooks=[(hook_name, zero)])

    return run


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
    batches = ctx.batches
    masks = [decoders.mask_kwargs(ctx.model, batch) for batch in batches]

    def run():
        outputs = []
        for batch, mask in zip(batches, masks):
            _, cache = bridge.run_with_cache(batch, names_filter=hook_name, **mask)
            outputs.append(cache[hook_name])
        return torch.cat(outputs)

    return run


def residual_cache(ctx):
    """`run_with_cache` filtered to every block's `hook_resid_post`, stacked in block order."""
    if ctx.blocks is None:
        ctx.unsupported(f"residual_cache reads a ModuleList of blocks; {ctx.site!r} is not one")
    wrapped = _Bridge(ctx)
    names = [wrapped.hook(f"{ctx.site}.{i}") for i in range(len(ctx.blocks))]
    bridge, x = wrapped.bridge, ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        _, cache = bridge.run_with_cache(x, **mask, names_filter=names)
        return torch.stack([cache[name] for name in names])

    return run


def attention_pattern(ctx):
    """The attention component's `hook_pattern` from `run_with_cache`. The bridge computes the pattern itself
    (its attention component materialises it), so no switch to eager attention is needed."""
    wrapped = _Bridge(ctx)
    name = f"{wrapped.component(ctx.site)}.hook_pattern"
    if name not in wrapped.bridge.hook_dict:
        ctx.unsupported(f"{ctx.site!r} is not an attention module: the bridge has no hook_pattern there")
    bridge, x = wrapped.bridge, ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        _, cache = bridge.run_with_cache(x, **mask, names_filter=name)
        return cache[name]

    return run


def activation_patching(ctx):
    """The activation-patching tutorial's step: a clean `run_with_cache`, then `run_with_hooks` on the corrupted
    tokens with a hook writing the clean activation at one position."""
    bridge, hook_name = _site(ctx)
    clean, corrupted, position = ctx.inputs, ctx.corrupted, int(ctx.params["position"])
    clean_mask, corrupted_mask = decoders.mask_kwargs(ctx.model, clean), decoders.mask_kwargs(ctx.model, corrupted)

    def run():
        _, clean_cache = bridge.run_with_cache(clean, names_filter=hook_name, **clean_mask)

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
            return bridge.generate(x, max_new_tokens=decoders.NEW_TOKENS, do_sample=False, stop_at_eos=False,
                                   verbose=False, use_past_kv_cache=use_past_kv_cache, **prompt_mask)

    # Untimed, before the samples: the timed call is the idiom (the KV cache on, generate's default), and where
    # its tokens are not those of the same generation without the cache, the result says from which new token
    # on. With transformer-lens 4.3.0 and transformers 5.24 that is the case on the Llama architecture from the
    # second new token (the uncached tokens are transformers' own there; GPT-2 and GPT-NeoX agree), so that
    # cell's mismatch is reported with its cause (docs/contracts.md, Decoder contracts).
    cached, uncached = generate(), generate(use_past_kv_cache=False)
    if not torch.equal(cached, uncached):
        parted = int((cached != uncached).any(dim=0).nonzero()[0]) - x.shape[1] + 1
        ctx.note(f"bridge.generate's tokens with its KV cache (the default, timed here) part from those with "
                 f"use_past_kv_cache=False at new token {parted} of {decoders.NEW_TOKENS}")

    return generate


def sae_encode(ctx):
    """The site's activation from `run_with_cache`, encoded by the autoencoder's arithmetic written out."""
    bridge, hook_name = _site(ctx)
    x, sae = ctx.inputs, ctx.sae
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the subject's mask and positions

    def run():
        _, cache = bridge.run_with_cache(x, **mask, names_filter=hook_name)
        return decoders.sae_encode(cache[hook_name], sae)

    return run


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
        probability = torch.softmax(logits[:, -1], dim=-1).gather(1, token[:, None]).sum()
        (gradient,) = torch.autograd.grad(probability, kept[0])
        return kept[0].detach() * gradient

    return run


from .transformer_lens_attribution_patching import attribution_patching  # noqa: E402,F401
from .transformer_lens_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
