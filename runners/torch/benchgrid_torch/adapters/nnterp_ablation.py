"""nnterp 1.3.0: logit_lens and the component ablations through `StandardizedTransformer`'s accessors (docs/
contracts.md, "Methods").

The lens is nnterp's own: `model.project_on_vocab(h)` (its final norm `ln_final`, then `lm_head`) on
`model.layers_output[i]` at the last position, inside one trace, which is what `nnterp.interventions.logit_lens`
does before it takes a softmax (the contract keeps the logits). An ablation assigns the component's accessor
(`model.mlps_output[i] = ...`). nnterp has no accessor for one head's output (head_ablation is reasoned out in the
specs: reaching it is nnsight's envoy of the projection, the nnsight row).
"""

import torch

from benchgrid_torch import ablation, traces

from .nnterp_ import _layers, _logits, _prepared, replacement_edit


def logit_lens(ctx):
    """`model.project_on_vocab(model.layers_output[i][:, -1])` for every layer, saved from one trace."""
    model, _ = _layers(ctx, "logit_lens")
    x = ctx.inputs

    def run():
        with model.trace(x):
            logits = list().save()
            for i in range(model.num_layers):
                logits.append(model.project_on_vocab(ablation.last(model.layers_output[i])))
        return torch.stack(logits)

    return run


def zero_ablation(ctx):
    """`model.logits` with zeros assigned to the site's accessor: replacement_edit's trace."""
    return replacement_edit(ctx)


def mean_ablation(ctx):
    """The site's accessor saved from one trace per dataset batch (in prepare) and averaged; then `model.logits`
    with that mean assigned to the accessor."""
    model, site = _prepared(ctx)
    mean = ablation.position_mean(traces.outputs(model, site, ctx.batches)(), ctx.batches, ctx.model)
    return traces.edited(model, site, _logits, ctx.inputs, lambda output: ablation.mean_like(mean, output))
