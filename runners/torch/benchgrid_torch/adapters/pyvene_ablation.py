"""pyvene 0.1.8: logit_lens and the ablations (docs/contracts.md, "Methods").

The lens reads every block with one `pv.CollectIntervention` per block (as residual_cache does) and applies the
model's final norm and unembedding to each by hand; pyvene has no lens of its own. An ablation is the tutorials'
lambda intervention at the component's output ("Set Activation to Zeros with a Lambda Expression"), the mean one
with the mean collected over the dataset first. A head is pyvene's own head-level component,
`head_attention_value_output` at unit `h.pos` (the output projection's input split into heads, pyvene's model
cards), with `pv.ZeroIntervention` at the head and every position (`unit_locations={"base": [[heads, positions]]}`).
"""

import pyvene as pv

from benchgrid_torch import ablation, decoders

from .pyvene_ import _collect, _collector, _component, _editor, _native, replacement_edit


def logit_lens(ctx):
    """Every block's output collected in one call, at the last position, through the final norm and unembedding."""
    blocks = ablation.lens_blocks(ctx)
    config = [
        {"component": _component(f"{ctx.site}.{i}"), "intervention": pv.CollectIntervention()}
        for i in range(len(blocks))
    ]
    model, x = pv.IntervenableModel(config, model=_native(ctx)), ctx.inputs
    (_, norm), (_, unembed) = ablation.final_norm(ctx), ablation.unembedding(ctx)

    def run():
        return ablation.lens([ablation.last(h) for h in _collect(model, x)[0]], norm, unembed)

    return run


def zero_ablation(ctx):
    """The logits with the site's output replaced by zeros (`lambda b, s: b * 0`, pyvene 101): replacement_edit's
    intervention."""
    return replacement_edit(ctx)


def mean_ablation(ctx):
    """The site's output collected over the dataset batches (in prepare) and averaged; then the logits with a lambda
    intervention replacing the site's output by that mean."""
    collector = _collector(ctx)
    kept = [_collect(collector, batch)[0][0] for batch in ctx.batches]
    mean = ablation.position_mean(kept, ctx.batches, ctx.model)
    model, x = _editor(ctx, lambda output: ablation.mean_like(mean, output)), ctx.inputs

    def run():
        return model({"input_ids": x})[1].logits

    return run


def head_ablation(ctx):
    """`pv.ZeroIntervention` on `head_attention_value_output` of the site's layer, at the head and every position."""
    _, _, head, _ = ablation.attention_heads(ctx)
    layers = decoders.recorded_attention(ctx.model)
    if ctx.site_module not in layers:
        ctx.unsupported(f"head_attention_value_output is a layer's attention; {ctx.site!r} is not an attention module")
    native, x = _native(ctx), ctx.inputs
    _lend_head_dim(native, ctx.site_module)
    batch, positions = x.shape[0], list(range(x.shape[1]))
    # [intervention][level: heads, positions][batch][units] (IntervenableModel's docstring on h.pos locations): one
    # intervention, the head, every position.
    where = {"base": [[[[head]] * batch, [positions] * batch]]}
    try:
        model = pv.IntervenableModel(
            {
                "layer": layers.index(ctx.site_module),
                "component": "head_attention_value_output",
                "unit": "h.pos",
                "intervention_type": pv.ZeroIntervention,
            },
            model=native,
        )
        model({"input_ids": x}, unit_locations=where)
    except AttributeError as exc:
        ctx.unsupported(
            f"pyvene 0.1.8's head_attention_value_output for {type(native).__name__} fails: AttributeError: {exc}"
        )

    def run():
        return model({"input_ids": x}, unit_locations=where)[1].logits

    return run


def _lend_head_dim(native, attention):
    """Found by running it: pyvene 0.1.8's Qwen2 model card splits heads by `config.head_dim`, which transformers 5's
    Qwen2Config leaves unset (its attention falls back to hidden_size // num_attention_heads). The attention module's
    own `head_dim`, the width it was built with, is written into the config where the config lacks one, so pyvene
    splits heads exactly as the model does; a config that has one is left as it is."""
    width = getattr(attention, "head_dim", None)
    if getattr(native.config, "head_dim", None) is None and isinstance(width, int):
        native.config.head_dim = width
