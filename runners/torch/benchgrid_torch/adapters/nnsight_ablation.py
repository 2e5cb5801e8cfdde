"""nnsight: logit_lens and the ablations in `NNsight(model).trace(x)` blocks (docs/contracts.md, "Methods").

The logit lens is nnsight's tutorial (nnsight.net, "Logit Lens"): inside the trace, each layer's output is passed
through the model's own final norm and unembedding envoys, `model.lm_head(model.transformer.ln_f(output))`. An
ablation assigns the component's `.output`; a head is reached at the attention's output projection's `.input` (the
heads' outputs side by side), the slice of the head set in place, as nnsight's docs edit an input.
"""

import torch
from nnsight import NNsight

from benchgrid_torch import ablation, decoders, traces

from .nnsight_ import _logits, _site, replacement_edit


def logit_lens(ctx):
    """Each block's output at the last position through `ln_f` and `lm_head`'s envoys inside one trace."""
    paths = decoders.block_paths(ctx, "logit_lens")
    model = NNsight(ctx.model)
    envoys = [model.get(path) for path in paths]
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
    """The logits with zeros assigned to the site's output: replacement_edit's trace."""
    return replacement_edit(ctx)


def mean_ablation(ctx):
    """The site's output saved from one trace per dataset batch (in prepare) and averaged; then the logits with that
    mean assigned to the site's output."""
    model, site = _site(ctx)
    mean = ablation.position_mean(traces.outputs(model, site, ctx.batches)(), ctx.batches, ctx.model)
    return traces.edited(model, site, _logits, ctx.inputs, lambda output: ablation.mean_like(mean, output))


def head_ablation(ctx):
    """The logits with the head's slice of the output projection's input set to zero in place."""
    path, _, head, width = ablation.attention_heads(ctx)
    model = NNsight(ctx.model)
    projection, x = model.get(path), ctx.inputs

    def run():
        with model.trace(x):
            projection.input[..., head * width : (head + 1) * width] = 0
            logits = model.output.save()
        return logits

    return run
