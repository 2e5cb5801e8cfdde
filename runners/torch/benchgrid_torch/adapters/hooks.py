"""Forward hooks on the site module: the reference for group A (hooks are removed after every call).

A module that returns a tuple (torchvision's and PyTorch's `nn.MultiheadAttention`: `(output, weights)`) has
the tuple's first tensor as its site output, for reads and edits alike (docs/contracts.md).
"""

import torch
from benchgrid_harness.subjects import native_model

from benchgrid_torch import decoders

from benchgrid_torch import attribution
from benchgrid_torch.site_output import first as _first
from benchgrid_torch.site_output import replace_first as _replace_first


def _forward_keeping_site(model, site, x):
    """Run the model with a hook that keeps the site's output; returns (site output, logits)."""
    kept = []
    handle = site.register_forward_hook(lambda _module, _args, output: kept.append(output))
    try:
        logits = model(x)
    finally:
        handle.remove()
    return kept[0], logits


def _forward_editing_site(model, site, x, edit):
    """Run the model with a hook that replaces the site's output by edit(site tensor); returns the logits."""
    hook = lambda _module, _args, output: _replace_first(output, edit(_first(output)))  # noqa: E731
    handle = site.register_forward_hook(hook)
    try:
        return model(x)
    finally:
        handle.remove()


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
        return torch.stack([_forward_editing_site(model, site, x, lambda out, s=s: out + s * direction)
                            for s in strengths])

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
        handle = site.register_forward_hook(lambda m, a, o: stop(m, a, o, kept))
        try:
            model(x)
        except _Stop:
            pass
        finally:
            handle.remove()
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
            (relevance,) = torch.autograd.grad(logits, inputs, grad_outputs=attribution.output_relevance(logits, target))
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


# Decoder contracts (docs/contracts.md, "Decoder contracts"): the arithmetic shared with other adapters is in
# benchgrid_torch/decoders.py, so that what every tool computes is written once.


def residual_cache(ctx):
    """Each block's output from one forward, a hook on every block of the ModuleList site, stacked in block order."""
    model, blocks, x = ctx.model, ctx.blocks, ctx.inputs
    if blocks is None:
        ctx.unsupported(f"residual_cache reads a ModuleList of blocks; {ctx.site!r} is not one")

    def run():
        kept = [None] * len(blocks)
        handles = [block.register_forward_hook(lambda _m, _a, output, i=i: kept.__setitem__(i, decoders.first(output)))
                   for i, block in enumerate(blocks)]
        try:
            model(x)
        finally:
            for handle in handles:
                handle.remove()
        return torch.stack(kept)

    return run


def attention_pattern(ctx):
    """The attention module's probabilities (its output's second element) under eager attention, from one forward."""
    decoders.eager(ctx.model)
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        return _forward_keeping_site(model, site, x)[0][1]

    return run


def activation_patching(ctx):
    """A clean forward keeping the site's output, then the corrupted forward with one position patched from it."""
    model, site, clean, corrupted = ctx.model, ctx.site_module, ctx.inputs, ctx.corrupted
    position = int(ctx.params["position"])

    def run():
        kept = _first(_forward_keeping_site(model, site, clean)[0])
        logits = _forward_editing_site(model, site, corrupted, lambda out: decoders.patched(out, kept, position))
        return decoders.logit_difference(logits, ctx.params)

    return run


def steered_generation(ctx):
    """transformers' greedy `generate` with a forward hook adding strength * vector to the site at every step."""
    native, site, x = native_model(ctx.model), ctx.site_module, ctx.inputs
    add = decoders.steering(ctx)

    def run():
        handle = site.register_forward_hook(lambda _m, _a, output: _replace_first(output, _first(output) + add))
        try:
            return native.generate(x, **decoders.generate_kwargs(ctx.model, x))
        finally:
            handle.remove()

    return run


def sae_encode(ctx):
    """The site's output from one forward, encoded by the sparse autoencoder's arithmetic written out."""
    model, site, x, sae = ctx.model, ctx.site_module, ctx.inputs, ctx.sae

    def run():
        return decoders.sae_encode(_first(_forward_keeping_site(model, site, x)[0]), sae)

    return run


def generated_token_attribution(ctx):
    """A greedy step picks the next token; a second forward keeps the site's output, and
    torch.autograd.grad of that token's probability gives input x gradient at the site (no parameter gradients)."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        with torch.no_grad():
            token = model(x)[:, -1].argmax(dim=-1)
        site_output, logits = _forward_keeping_site(model, site, x)
        activation = _first(site_output)
        probability = torch.softmax(logits[:, -1], dim=-1).gather(1, token[:, None]).sum()
        (gradient,) = torch.autograd.grad(probability, activation)
        return activation.detach() * gradient

    return run


from .hooks_attribution_patching import attribution_patching  # noqa: E402,F401
from .hooks_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
