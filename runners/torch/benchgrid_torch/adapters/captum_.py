"""Captum: `LayerActivation` reads layer outputs, `LayerGradientXActivation` gives the gradient at a layer, and
its attribution methods (`LayerGradCam`, `LRP`, `IntegratedGradients`) serve the attribution contracts."""

import torch
from captum.attr import (
    LRP,
    IntegratedGradients,
    LayerActivation,
    LayerAttribution,
    LayerGradCam,
    LayerGradientXActivation,
)
from captum.attr._utils.lrp_rules import EpsilonRule

from benchgrid_harness.context import probe_site

from benchgrid_torch import attribution


def _refuse_tuples_with_none(ctx):
    """Unsupported where the site returns a tuple holding a non-tensor (attention's `(output, None)`).

    Captum's layer methods clone every element of the layer's output (captum/_utils/gradient.py), so such a
    module fails inside Captum ("'NoneType' object has no attribute 'clone'"), and Captum has no option to
    read one element of a tuple output.
    """
    seen = []
    handle = ctx.site_module.register_forward_hook(lambda _module, _args, output: seen.append(output))
    try:
        with torch.no_grad():
            ctx.model(ctx.inputs)
    finally:
        handle.remove()
    if seen and isinstance(seen[0], tuple) and not all(isinstance(v, torch.Tensor) for v in seen[0]):
        kinds = ", ".join(type(v).__name__ for v in seen[0])
        ctx.unsupported(
            f"{ctx.site!r} returns a tuple ({kinds}); Captum's layer methods clone every element of a "
            "layer's output and fail on the None ('NoneType' object has no attribute 'clone'), with no "
            "option to read the first element"
        )


def single_module_output(ctx):
    """The site's activation from `LayerActivation` (a full forward with a hook on the layer)."""
    _refuse_tuples_with_none(ctx)
    activation = LayerActivation(ctx.model, ctx.site_module)
    x = ctx.inputs

    def run():
        return activation.attribute(x)

    return run


def matched_retained(ctx):
    """(site output, logits) from one `LayerActivation` forward over two layers: the site and the model itself."""
    # Captum returns layer activations and drops the forward's output, so the logits are retained the only
    # way it can: as the activation of the root module, whose output is the model's output.
    _refuse_tuples_with_none(ctx)
    activation = LayerActivation(ctx.model, [ctx.site_module, ctx.model])
    x = ctx.inputs

    def run():
        site_output, logits = activation.attribute(x)
        return site_output, logits

    return run


def _target_scores(model, target):
    """Captum's forward function: logits[:, target] per example, summed over any axes after the batch axis."""

    # Captum's own `target=` picks one scalar per example; a decoder's logits[:, target] is a row of
    # vocabulary logits per example (Captum asserts "cannot take gradient with respect to multiple
    # outputs"), so the contract's selection and sum are written into the forward function instead.
    def forward(x):
        scores = model(x)[:, target]
        return scores.sum(dim=list(range(1, scores.dim()))) if scores.dim() > 1 else scores

    return forward


def _layer_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output): `LayerGradientXActivation` without the activation factor."""
    # multiply_by_inputs=False makes the attribution the layer gradient alone; Captum takes it with
    # torch.autograd.grad(torch.unbind(scores), layer output) (captum/_utils/gradient.py,
    # compute_layer_gradients_and_eval), which sums over the batch like the reference's .sum().
    _refuse_tuples_with_none(ctx)
    gradient = LayerGradientXActivation(
        _target_scores(ctx.model, ctx.target), ctx.site_module, multiply_by_inputs=False
    )
    x = ctx.inputs

    def run():
        return gradient.attribute(x)

    return run


def same_site_gradient(ctx):
    """Captum's layer gradient; the witnesses mark this cell `work: differs` (no parameter gradients).

    Captum has no way to run the full backward this contract asks for: its layer attributions differentiate
    with torch.autograd.grad with respect to the layer output only, so the backward stops at the site and no
    parameter's .grad is filled. Its like-for-like contract is `site_gradient_only`.
    """
    return _layer_gradient(ctx)


def site_gradient_only(ctx):
    """Captum's layer gradient: torch.autograd.grad to the site, the parameters untouched, as the contract asks."""
    return _layer_gradient(ctx)


def ordered_dataset_features(ctx):
    """The site's activations over the dataset batches, one `LayerActivation` call per batch, concatenated."""
    _refuse_tuples_with_none(ctx)
    activation = LayerActivation(ctx.model, ctx.site_module)
    batches = ctx.batches

    def run():
        return torch.cat([activation.attribute(batch) for batch in batches])

    return run


def grad_cam(ctx):
    """`LayerGradCam(model, layer).attribute(x, target=t, relu_attributions=True)`, then
    `LayerAttribution.interpolate(..., interpolate_mode="bilinear")` and the contract's per-image normalisation.

    The idiom is Captum's Grad-CAM tutorial (tutorials/Resnet_TorchVision_Interpret.ipynb: LayerGradCam, then
    LayerAttribution.interpolate to the input size). Captum leaves the map unnormalised (its visualisation
    helpers scale it for display), so the contract's min-max scaling is applied after Captum's call. Captum
    takes the channel weights as the mean over every axis after the second: right for [B, C, h, w]; a ViT's
    [B, tokens, C] output would be read with tokens as channels, so that layout is refused here.
    """
    shape, _dtype = probe_site(ctx.model, ctx.inputs, ctx.site_module, ctx.site)
    if len(shape) != 4:
        ctx.unsupported(
            f"Captum's LayerGradCam takes the channel weights as the gradient's mean over every axis after "
            f"the second; {ctx.site!r} outputs {list(shape)} (a ViT's tokens x channels), which it would "
            "weight per token instead of per channel, and it has no reshape hook like pytorch-grad-cam's "
            "reshape_transform"
        )
    gradcam = LayerGradCam(ctx.model, ctx.site_module)
    x, target = ctx.inputs, ctx.target

    def run():
        cam = gradcam.attribute(x, target=target, relu_attributions=True)
        upsampled = LayerAttribution.interpolate(cam, tuple(x.shape[-2:]), interpolate_mode="bilinear")
        return attribution.normalise(upsampled[:, 0])

    return run


def lrp_epsilon(ctx):
    """`LRP(model).attribute(x, target=t)` with `module.rule = EpsilonRule(epsilon)` on every layer Captum has a
    rule for (Captum's documented way to choose a rule: set `rule` on the module; docs of captum.attr.LRP).

    Captum's LRP starts from the target logit (it multiplies its normalised relevances by the output) and
    applies its default rule set, which is the contract's; only epsilon is set. It runs the model twice per
    call (captum/attr/_core/lrp.py: `_compute_output_and_change_weights`, then the forward of `gradient_func`
    with the rule hooks), which the witnesses mark. Captum refuses a model with a leaf module it has no rule
    for (ViT's LayerNorm, GELU, attention): TypeError at attribute().
    """
    epsilon = float(ctx.params["epsilon"])
    layers = [module for module in ctx.model.modules() if isinstance(module, attribution.EPSILON_LAYERS)]
    lrp = LRP(ctx.model)
    x, target = ctx.inputs, ctx.target
    # Each call gets its own copy of the input and its own rule objects, as a first call on a new image has.
    # Captum 0.9.0 keeps state between calls in both: it marks every tensor it hooks with `hook_registered =
    # True` and never clears it (captum/attr/_utils/lrp_rules.py, PropagationRule.forward_hook), so a second
    # attribute() on the same tensor skips the first layer's input hook; and with the same EpsilonRule objects a
    # second attribute() on a fresh copy of the input returns another relevance (found by running it on VGG-11:
    # max abs difference 3.7e-3 on a map whose largest value is 4.4e-8; fresh rules give the first call's map).
    ctx.note(
        "Captum's LRP is given a copy of the input and new EpsilonRule objects per call: with the same input "
        "tensor (hook_registered is never cleared) or the same rule objects, every call after the first "
        "returns another relevance"
    )

    def run():
        for layer in layers:
            layer.rule = EpsilonRule(epsilon=epsilon)
        return lrp.attribute(x.clone(), target=target)

    return run


def integrated_gradients(ctx):
    """`IntegratedGradients(model).attribute(x, target=t, n_steps=n, method="riemann_right")` (zero baselines, the
    default). Captum's default method is Gauss-Legendre; the contract is the right Riemann sum, one of Captum's
    documented `method` values. Captum evaluates all steps as one batch of n x B images (internal_batch_size
    unset), which is why this contract counts no forwards (docs/contracts.md)."""
    ig = IntegratedGradients(ctx.model)
    x, target, steps = ctx.inputs, ctx.target, int(ctx.params["steps"])

    def run():
        return ig.attribute(x, target=target, n_steps=steps, method="riemann_right")

    return run


# Decoder contracts.


def generated_token_attribution(ctx):
    """`LayerGradientXActivation` at the embedding layer, attributing the greedy next token's probability: Captum's
    forward function returns softmax(logits[:, -1]) and `target=` picks each sequence's token (Captum's own
    convention for a per-example output), after a greedy step that picks the tokens."""
    model, x = ctx.model, ctx.inputs

    def probabilities(tokens):
        return torch.softmax(model(tokens)[:, -1], dim=-1)

    attribution = LayerGradientXActivation(probabilities, ctx.site_module)

    def run():
        with torch.no_grad():
            token = model(x)[:, -1].argmax(dim=-1)
        return attribution.attribute(x, target=token)

    return run
