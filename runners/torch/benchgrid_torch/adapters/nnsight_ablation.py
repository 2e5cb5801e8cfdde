"""nnsight: logit_lens and the ablations in `NNsight(model).trace(x)` blocks (docs/contracts.md, "Methods").

The logit lens is nnsight's tutorial (nnsight.net, "Logit Lens"): inside the trace, each layer's output is passed
through the model's own final norm and unembedding envoys, `model.lm_head(model.transformer.ln_f(output))`. An
ablation assigns the component's `.output`; a head is reached at the attention's output projection's `.input` (the
heads' outputs side by side), the slice of the head set in place, as nnsight's docs edit an input.
"""

import torch
from nnsight import NNsight

from benchgrid_torch import ablation, decoders


def _traced(ctx):
    model = NNsight(ctx.model)
    return model, model.get(ctx.site)


def logit_lens(ctx):
    """Each block's output at the last position through `ln_f` and `lm_head`'s envoys inside one trace."""
    blocks = ablation.lens_blocks(ctx)
    model = NNsight(ctx.model)
    envoys = [model.get(f"{ctx.site}.{i}") for i in range(len(blocks))]
    norm, unembed = model.get(ablation.final_norm(ctx)[0]), model.get(ablation.unembedding(ctx)[0])
    x = ctx.inputs

    def run():
        with model.trace(x):
            # A list saved once and appended to (a comprehension inside a trace body is not rewritten by nnsight).
            logits = list().save()
            for envoy in envoys:
                logits.append(unembed(norm(ablation.last(decoders.first(envoy.output)))))
        return torch.stack(logits)

    return run


def zero_ablation(ctx):
    """The logits with zeros assigned to the site's output."""
    model, site = _traced(ctx)
    x = ctx.inputs

    def run():
        with model.trace(x):
            site.output = decoders.replace_first(site.output, torch.zeros_like(decoders.first(site.output)))
            logits = model.output.save()
        return logits

    return run


def mean_ablation(ctx):
    """The site's output saved from one trace per dataset batch (in prepare) and averaged; then the logits with that
    mean assigned to the site's output."""
    model, site = _traced(ctx)
    kept = []
    for batch in ctx.batches:
        with model.trace(batch):
            kept.append(decoders.first(site.output).save())
    mean, x = ablation.position_mean(kept, ctx.batches, ctx.model), ctx.inputs

    def run():
        with model.trace(x):
            site.output = decoders.replace_first(site.output, ablation.mean_like(mean, decoders.first(site.output)))
            logits = model.output.save()
        return logits

    return run


def head_ablation(ctx):
    """The logits with the head's slice of the output projection's input set to zero in place."""
    path, _, head, width = ablation.attention_heads(ctx)
    model = NNsight(ctx.model)
    projection, x = model.get(path), ctx.inputs

    def run():
        with model.trace(x):
            projection.input[..., head * width:(head + 1) * width] = 0
            logits = model.output.save()
        return logits

    return run
