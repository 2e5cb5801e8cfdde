"""Captum: `LayerActivation` reads layer outputs, `LayerGradientXActivation` gives the gradient at a layer."""

import torch
from captum.attr import LayerActivation, LayerGradientXActivation


def single_module_output(ctx):
    """The site's activation from `LayerActivation` (a full forward with a hook on the layer)."""
    activation = LayerActivation(ctx.model, ctx.site_module)
    x = ctx.inputs

    def run():
        return activation.attribute(x)

    return run


def matched_retained(ctx):
    """(site output, logits) from one `LayerActivation` forward over two layers: the site and the model itself."""
    # Captum returns layer activations and drops the forward's output, so the logits are retained the only
    # way it can: as the activation of the root module, whose output is the model's output.
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
    gradient = LayerGradientXActivation(_target_scores(ctx.model, ctx.target), ctx.site_module,
                                        multiply_by_inputs=False)
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
    activation = LayerActivation(ctx.model, ctx.site_module)
    batches = ctx.batches

    def run():
        return torch.cat([activation.attribute(batch) for batch in batches])

    return run
