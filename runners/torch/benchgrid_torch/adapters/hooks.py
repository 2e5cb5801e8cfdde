"""Forward hooks on the site module: the reference for group A (hooks are removed after every call).

A module that returns a tuple (torchvision's and PyTorch's `nn.MultiheadAttention`: `(output, weights)`) has
the tuple's first tensor as its site output, for reads and edits alike (docs/contracts.md). The decoder contracts,
attribution_patching and the methods (logit_lens, the ablations) are in hooks_decoders.py,
hooks_attribution_patching.py and hooks_ablation.py, exposed here.
"""

import torch
from benchgrid_harness.hooked import with_hooks

from benchgrid_torch import attribution
from benchgrid_torch.site_output import first as _first
from benchgrid_torch.site_output import replace_first as _replace_first


def _forward_keeping_site(model, site, x):
    """Run the model with a hook that keeps the site's output; returns (site output, logits)."""
    kept = []
    logits = with_hooks([site.register_forward_hook(lambda _module, _args, output: kept.append(output))], model, x)
    return kept[0], logits


def _forward_editing_site(model, site, x, edit):
    """Run the model with a hook that replaces the site's output by edit(site tensor); returns the logits."""
    hook = lambda _module, _args, output: _replace_first(output, edit(_first(output)))  # noqa: E731
    return with_hooks([site.register_forward_hook(hook)], model, x)


def single_module_output(ctx):
    """The site's output from a full forward pass (its tensor: the first element of a tuple output)."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        return _first(_forward_keeping_site(model, site, x)[0])

    return run


def matched_retained(ctx):
    """(site output, logits) from one forward pass."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        site_output, logits = _forward_keeping_site(model, site, x)
        return _first(site_output), logits

    return run


def replacement_edit(ctx):
    """Logits with the site's output replaced by zeros."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        return _forward_editing_site(model, site, x, torch.zeros_like)

    return run


def repeated_steering(ctx):
    """Stacked logits, one forward per strength s with the site output + s * direction."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs
    direction, strengths = ctx.direction, ctx.strengths

    def run():
        return torch.stack(
            [_forward_editing_site(model, site, x, lambda out, s=s: out + s * direction) for s in strengths]
        )

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output): a forward hook plus a tensor hook, and a full backward.

    `loss.backward()` reaches every parameter (their .grad accumulate, as in raw's cell); the tensor hook
    registered on the site's output by the forward hook keeps the gradient flowing through it.
    """
    model, site, x, target = ctx.model, ctx.site_module, ctx.inputs, ctx.target

    def run():
        kept = []
        site_output, logits = _forward_keeping_site(model, site, x)
        _first(site_output).register_hook(kept.append)
        logits[:, target].sum().backward()
        return kept[0]

    return run


def site_gradient_only(ctx):
    """d(logits[:, target].sum()) / d(site output) through torch.autograd.grad: no parameter gradients."""
    model, site, x, target = ctx.model, ctx.site_module, ctx.inputs, ctx.target

    def run():
        site_output, logits = _forward_keeping_site(model, site, x)
        (gradient,) = torch.autograd.grad(logits[:, target].sum(), _first(site_output))
        return gradient

    return run


class _Stop(Exception):
    """Raised by the stopping hook once the site's output is kept: the rest of the forward never runs."""


def site_output_stopped(ctx):
    """The site's output, the forward ended by an exception from the site's forward hook (as nnsight's stop)."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def stop(_module, _args, output, kept):
        kept.append(output)
        raise _Stop

    def run():
        kept = []
        try:
            with_hooks([site.register_forward_hook(lambda m, a, o: stop(m, a, o, kept))], model, x)
        except _Stop:
            pass
        return _first(kept[0])

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, concatenated in order."""
    model, site, batches = ctx.model, ctx.site_module, ctx.batches

    def run():
        return torch.cat([_first(_forward_keeping_site(model, site, batch)[0]) for batch in batches])

    return run


def grad_cam(ctx):
    """Grad-CAM by hand: a forward hook keeps the site's output, torch.autograd.grad gives the target logit's
    gradient there (no parameter gradients), and benchgrid_torch/attribution.py finishes the map."""
    model, site, x, target = ctx.model, ctx.site_module, ctx.inputs, ctx.target

    def run():
        site_output, logits = _forward_keeping_site(model, site, x)
        activation = _first(site_output)
        (gradient,) = torch.autograd.grad(logits[:, target].sum(), activation)
        return attribution.grad_cam_map(activation.detach(), gradient, x.shape[-2:])

    return run


def _epsilon_rule_hooks(module, epsilon):
    """The epsilon rule on one layer, as two hooks: R_in = x * J^T (R_out / (z + epsilon * sign(z))).

    The pre-hook gives the layer its own view of its input, whose tensor hook multiplies the arriving
    J^T(...) by x: the relevance this layer passes down, summed by autograd with what other consumers of x
    pass (a residual branch passes its relevance unchanged). The forward hook divides the relevance arriving
    at z by the stabilised z, computed at once because an in-place ReLU may overwrite z afterwards.
    """

    def pre(_module, args):
        own = args[0].view_as(args[0])
        value = own.detach()
        own.register_hook(lambda grad: value * grad)
        return (own,) + tuple(args[1:])

    def post(_module, _args, output):
        denominator = attribution.stabilised(output.detach(), epsilon)
        output.register_hook(lambda grad: grad / denominator)

    return [module.register_forward_pre_hook(pre), module.register_forward_hook(post)]


def lrp_epsilon(ctx):
    """LRP-epsilon relevance at the input by hand: the rule's hooks on every layer of attribution.EPSILON_LAYERS,
    one forward, and torch.autograd.grad from the target logit's relevance (no parameter gradients)."""
    model, x, target, epsilon = ctx.model, ctx.inputs, ctx.target, float(ctx.params["epsilon"])
    layers = [m for m in model.modules() if isinstance(m, attribution.EPSILON_LAYERS)]

    def run():
        handles = [h for layer in layers for h in _epsilon_rule_hooks(layer, epsilon)]
        try:
            inputs = x.detach().requires_grad_()
            logits = model(inputs)
            (relevance,) = torch.autograd.grad(
                logits, inputs, grad_outputs=attribution.output_relevance(logits, target)
            )
        finally:
            for handle in handles:
                handle.remove()
        return relevance

    return run


def integrated_gradients(ctx):
    """Integrated gradients by hand: one forward and torch.autograd.grad per step on the straight path from the zero
    baseline, alphas k/steps for k = 1..steps (the right Riemann sum), x times the mean gradient."""
    model, x, target, steps = ctx.model, ctx.inputs, ctx.target, int(ctx.params["steps"])

    def run():
        total = torch.zeros_like(x)
        for k in range(1, steps + 1):
            point = (x * (k / steps)).requires_grad_()
            (gradient,) = torch.autograd.grad(model(point)[:, target].sum(), point)
            total += gradient
        return x * total / steps

    return run


from .hooks_decoders import (  # noqa: E402,F401
    residual_cache,
    attention_pattern,
    activation_patching,
    steered_generation,
    sae_encode,
    generated_token_attribution,
)
from .hooks_attribution_patching import attribution_patching  # noqa: E402,F401
from .hooks_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
