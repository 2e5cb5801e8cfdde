"""pyvene 0.1.8: interventions declared as configs, `pv.IntervenableModel(config, model)`, called with
`base={"input_ids": ...}`.

Idioms from pyvene's own tutorials (pyvene_101.ipynb and tutorials/basic_tutorials): a component is named by
its module path with `.output` (`"transformer.h[1].mlp.output"`, the "direct access string" of pyvene 101), so
every site a user can name is reachable; `pv.CollectIntervention` collects an activation, a function
`lambda b, s: ...` edits one ("Set Activation to Zeros with a Lambda Expression"), `pv.VanillaIntervention`
with `sources=` and `unit_locations={"sources->base": position}` is the interchange (patching) intervention,
`IntervenableModel.generate(..., unit_locations=None, intervene_on_prompt=True)` steers every step of a
generation ("Advanced Intervention on LMs Generation"), and a `CollectIntervention` subclass that encodes is
the sparse-autoencoder tutorial's way to read SAE features. pyvene looks the model's class up in its own
tables, so it gets the subject as transformers built it (`native_model`).

pyvene calls the model with `**base` and returns its ModelOutput; `.logits` is the contract's logits. A
module whose output is a tuple (a decoder block, an attention module) is intervened on at its first element.
"""

import pyvene as pv
import torch
from pyvene.models.intervenable_modelcard import type_to_module_mapping
from benchgrid_harness.subjects import native_model

from benchgrid_torch import decoders


def _native(ctx):
    """The subject as transformers built it; pyvene calls it with the token ids alone, so padded prompts stop here."""
    decoders.unpadded(ctx, "pyvene's IntervenableModel as this adapter calls it")
    return native_model(ctx.model)


def _component(path):
    """pyvene's direct-access name of a module's output: `transformer.h.1.mlp` -> `transformer.h[1].mlp.output`."""
    return f"{decoders.bracketed(path)}.output"


def _collector(ctx, path=None):
    """An IntervenableModel collecting the output of the module at `path` (default: the site)."""
    return pv.IntervenableModel(
        {"component": _component(path or ctx.site), "intervention": pv.CollectIntervention()}, model=_native(ctx)
    )


def _collect(model, x):
    """(collected activations, the model's output) of one call."""
    (_, collected), output = model({"input_ids": x})
    return collected, output


def _editor(ctx, edit):
    """An IntervenableModel applying `edit(base)` to the site's output (the tutorials' lambda intervention)."""
    return pv.IntervenableModel(
        {"component": _component(ctx.site), "intervention": lambda b, s: edit(b)}, model=_native(ctx)
    )


def single_module_output(ctx):
    """The site's output collected by `pv.CollectIntervention` during a whole forward."""
    model, x = _collector(ctx), ctx.inputs

    def run():
        return _collect(model, x)[0][0]

    return run


def matched_retained(ctx):
    """(site output, logits): the collected activation and the intervened run's logits, one forward."""
    model, x = _collector(ctx), ctx.inputs

    def run():
        collected, output = _collect(model, x)
        return collected[0], output.logits

    return run


def replacement_edit(ctx):
    """Logits with the site's output replaced by zeros (`lambda b, s: b * 0`, pyvene 101)."""
    model, x = _editor(ctx, torch.zeros_like), ctx.inputs

    def run():
        return model({"input_ids": x})[1].logits

    return run


def repeated_steering(ctx):
    """Stacked logits, one intervened call per strength s adding s * direction (one config per strength)."""
    models = [_editor(ctx, lambda b, s=s: b + s * ctx.direction) for s in ctx.strengths]
    x = ctx.inputs

    def run():
        return torch.stack([model({"input_ids": x})[1].logits for model in models])

    return run


def same_site_gradient(ctx):
    """The collected site output with a tensor hook, and `loss.backward()` through it, where pyvene hands the
    collected activation back inside the autograd graph; one collecting call in prepare finds out."""
    model, x, target = _collector(ctx), ctx.inputs, ctx.target
    probe, _ = _collect(model, x)
    if not probe[0].requires_grad:
        ctx.unsupported(
            "pyvene's CollectIntervention hands the site's activation back outside the autograd graph "
            "(the collected tensor does not require grad, with autograd on), so no gradient at the site "
            "can be read through it"
        )

    def run():
        collected, output = _collect(model, x)
        kept = []
        collected[0].register_hook(kept.append)
        output.logits[:, target].sum().backward()
        return kept[0]

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, one collecting call per batch, concatenated."""
    model, batches = _collector(ctx), ctx.batches

    def run():
        return torch.cat([_collect(model, batch)[0][0] for batch in batches])

    return run


def residual_cache(ctx):
    """Every block's output from one call: a config with one CollectIntervention per block."""
    if ctx.blocks is None:
        ctx.unsupported(f"residual_cache reads a ModuleList of blocks; {ctx.site!r} is not one")
    config = [
        {"component": _component(f"{ctx.site}.{i}"), "intervention": pv.CollectIntervention()}
        for i in range(len(ctx.blocks))
    ]
    model, x = pv.IntervenableModel(config, model=_native(ctx)), ctx.inputs

    def run():
        return torch.stack(_collect(model, x)[0])

    return run


def attention_pattern(ctx):
    """pyvene 101's "Get Attention Weights": the abstract `attention_weight` component of the site's layer, with a
    CollectIntervention, on a model switched to eager attention ("Do not use SDPA attention because we cannot hook
    to attn_dropout"). One collecting call in prepare finds out whether pyvene's hook sees anything."""
    native = _native(ctx)
    name = type(native).__name__
    layers = decoders.recorded_attention(ctx.model)
    if ctx.site_module not in layers:
        ctx.unsupported(f"attention_weight is a layer's attention; {ctx.site!r} is not an attention module")
    hooked = type_to_module_mapping.get(type(native), {}).get("attention_weight")
    if hooked is None:
        ctx.unsupported(f"pyvene 0.1.8 has no attention_weight component for {name} (its model card maps none)")
    decoders.eager(ctx.model)
    model = pv.IntervenableModel(
        {
            "layer": layers.index(ctx.site_module),
            "component": "attention_weight",
            "intervention_type": pv.CollectIntervention,
        },
        model=native,
    )
    x = ctx.inputs
    try:
        _collect(model, x)
    except KeyError as exc:
        ctx.unsupported(
            f"pyvene 0.1.8's attention_weight component for {name} collects nothing (KeyError: {exc}): it "
            f"hooks the input of {hooked[0]!r}, which this transformers' eager attention does not call"
        )

    def run():
        return _collect(model, x)[0][0]

    return run


def activation_patching(ctx):
    """The interchange intervention: `pv.VanillaIntervention` at the site, `sources=` the clean tokens, base the
    corrupted ones, `unit_locations={"sources->base": position}`."""
    model = pv.IntervenableModel(
        {"component": _component(ctx.site), "intervention_type": pv.VanillaIntervention}, model=_native(ctx)
    )
    clean, corrupted, position = ctx.inputs, ctx.corrupted, int(ctx.params["position"])

    def run():
        _, output = model(
            {"input_ids": corrupted}, sources=[{"input_ids": clean}], unit_locations={"sources->base": position}
        )
        return decoders.logit_difference(output.logits, ctx.params)

    return run


def steered_generation(ctx):
    """`IntervenableModel.generate` with the addition at every forward (`unit_locations=None`,
    `intervene_on_prompt=True`)."""
    add = decoders.steering(ctx)
    model, x = _editor(ctx, lambda b: b + add), ctx.inputs

    def run():
        _, tokens = model.generate(
            {"input_ids": x}, unit_locations=None, intervene_on_prompt=True, **decoders.generate_kwargs(ctx.model)
        )
        return tokens

    return run


class _SAECollect(pv.CollectIntervention):
    """The sparse-autoencoder tutorial's collecting intervention, with a standard ReLU encoder (b_dec subtracted)."""

    def __init__(self, sae, **kwargs):
        super().__init__(**kwargs, keep_last_dim=True)
        self.sae = sae

    def forward(self, base, source=None, subspaces=None):
        return decoders.sae_encode(base, self.sae)


def sae_encode(ctx):
    """The site's activation encoded by a collecting SAE intervention (tutorials/basic_tutorials/Sparse_Autoencoder)."""
    width = ctx.sae["W_enc"].shape[0]
    model = pv.IntervenableModel(
        {"component": _component(ctx.site), "intervention": _SAECollect(ctx.sae, embed_dim=width)}, model=_native(ctx)
    )
    x = ctx.inputs

    def run():
        return _collect(model, x)[0][0]

    return run


from .pyvene_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
