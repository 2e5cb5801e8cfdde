"""Forward hooks, the reference of logit_lens and the ablations (docs/contracts.md, "Methods"); the arithmetic
shared with other tools is in benchgrid_torch/ablation.py. Hooks are removed after every call."""

from benchgrid_harness.hooked import with_hooks

from benchgrid_torch import ablation, decoders

from .hooks import _forward_editing_site, replacement_edit
from .hooks_decoders import forward_keeping_blocks


def logit_lens(ctx):
    """A hook on every block keeps its output at the last position during one forward; the final norm and the
    unembedding are then called on each, stacked to [n_layer, batch, vocab]."""
    blocks = ablation.lens_blocks(ctx)
    (_, norm), (_, unembed) = ablation.final_norm(ctx), ablation.unembedding(ctx)
    model, x = ctx.model, ctx.inputs

    def last(output):
        return ablation.last(decoders.first(output))

    def run():
        return ablation.lens(forward_keeping_blocks(model, blocks, x, keep=last)[0], norm, unembed)

    return run


def zero_ablation(ctx):
    """The logits with the site's output replaced by zeros by a forward hook: replacement_edit's forward."""
    return replacement_edit(ctx)


def mean_ablation(ctx):
    """The site's mean output over the dataset, kept by a hook in one forward per dataset batch (in prepare), then
    the logits with a hook replacing the site's output by that mean at every position."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs
    mean = ablation.position_mean([decoders.forward_keeping(model, site, b) for b in ctx.batches], ctx.batches, model)

    def run():
        return _forward_editing_site(model, site, x, lambda output: ablation.mean_like(mean, output))

    return run


def head_ablation(ctx):
    """The logits with a forward pre-hook on the attention's output projection zeroing the head's slice of its
    input (the heads' outputs side by side, before they are mixed)."""
    _, projection, head, width = ablation.attention_heads(ctx)
    model, x = ctx.model, ctx.inputs

    def pre(_module, args):
        return (ablation.zero_head(args[0], head, width),) + tuple(args[1:])

    def run():
        return with_hooks([projection.register_forward_pre_hook(pre)], model, x)

    return run
