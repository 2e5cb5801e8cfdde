"""TransformerLens 4's `TransformerBridge` over a copy of the subject, and the hook point names of its sites: what
every contract of transformer_lens_.py (and its _ablation and _attribution_patching modules) starts from.

The bridge wraps each transformers module it knows (embeddings, blocks, their attention, MLP, norms and linear
layers) in a component whose `hook_out` sees that module's output; TransformerLens's own name for that hook is used
where it has one (`blocks.1.hook_resid_post` for a block, `blocks.1.hook_mlp_out`, `hook_embed`), else `hook_out`.
"""

import copy

from benchgrid_harness.subjects import native_model
from transformer_lens.factories.architecture_adapter_factory import SUPPORTED_ARCHITECTURES
from transformer_lens.model_bridge.sources import build_bridge_from_module

from benchgrid_torch import decoders

# The seed's reason (reference/resnet18_gpu.results.json) for subjects TransformerLens does not cover.
NOT_A_DECODER = (
    "TransformerLens reimplements its supported decoder families; generic subjects are not among "
    "them (decoders are measured in the mech-interp workloads)"
)


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
            self.ctx.unsupported(
                f"TransformerLens's bridge has no component for {path!r} (a {type(module).__name__}): "
                "it wraps the embeddings, the blocks, and their attention, MLP, norms and linear layers"
            )
        return name

    def hook(self, path=None):
        """The hook point name that sees the output of the module at `path` (default: the site)."""
        return _hook_name(self.bridge, self.component(path or self.ctx.site))


def _site(ctx):
    """(bridge, hook name of the site)."""
    wrapped = _Bridge(ctx)
    return wrapped.bridge, wrapped.hook()


def _cached(ctx, bridge, names, x=None, **options):
    """call() -> (logits, cache) of one `bridge.run_with_cache` on `x` (default: the inputs) caching only the hook
    point(s) `names`; for padded text with the subject's attention mask and position ids."""
    x = ctx.inputs if x is None else x
    mask = decoders.mask_kwargs(ctx.model, x)
    return lambda: bridge.run_with_cache(x, **mask, names_filter=names, **options)


def _hooked(ctx, bridge, name, replacement):
    """call() -> the logits of one `bridge.run_with_hooks` on the inputs with a forward hook at the hook point `name`
    returning replacement(activation); for padded text with the subject's attention mask and position ids."""
    x = ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)

    def hook(activation, hook):
        return replacement(activation)

    return lambda: bridge.run_with_hooks(x, **mask, fwd_hooks=[(name, hook)])
