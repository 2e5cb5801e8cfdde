"""Plain forward passes with nothing attached: the floor every tool is measured against (not comparable)."""

import torch
from benchgrid_harness.subjects import native_model

from benchgrid_torch import decoders


def single_module_output(ctx):
    """One forward pass; there is no way to read the site without attaching something."""
    model, x = ctx.model, ctx.inputs

    def run():
        return model(x)

    return run


# Reading and keeping two tensors, or editing one: one forward pass, nothing read, kept or edited.
matched_retained = replacement_edit = single_module_output


def repeated_steering(ctx):
    """One unsteered forward pass per strength, stacked like the steered logits."""
    model, x, strengths = ctx.model, ctx.inputs, ctx.strengths

    def run():
        return torch.stack([model(x) for _ in strengths])

    return run


def same_site_gradient(ctx):
    """Forward, then backward from logits[:, target].sum() into the parameters (nothing attached)."""
    model, x, target = ctx.model, ctx.inputs, ctx.target

    def run():
        logits = model(x)
        # Accumulates into each parameter's .grad: allocated by the first call, added to in place afterwards.
        logits[:, target].sum().backward()
        return logits.detach()

    return run


def ordered_dataset_features(ctx):
    """One forward pass per dataset batch, in order."""
    model, batches = ctx.model, ctx.batches

    def run():
        return [model(batch) for batch in batches]

    return run


def _forward_and_input_gradient(ctx):
    """One forward and torch.autograd.grad of logits[:, target].sum() down to the input: the floor of the
    attribution contracts (every one of them runs a forward and a backward; nothing else is attached)."""
    model, x, target = ctx.model, ctx.inputs, ctx.target

    def run():
        inputs = x.detach().requires_grad_()
        (gradient,) = torch.autograd.grad(model(inputs)[:, target].sum(), inputs)
        return gradient

    return run


# Grad-CAM and LRP-epsilon: a forward and a backward to the input, nothing attached.
grad_cam = lrp_epsilon = _forward_and_input_gradient


# Decoder contracts: the floor of each is the model's own forwards with nothing attached.


# The residual stream, an attention pattern, a sparse autoencoder's encoding: one forward pass. The attention
# pattern's floor runs the subject's own attention implementation (SDPA unless the spec says otherwise): the figure
# the eager attention of every tool in that row is measured against.
residual_cache = attention_pattern = sae_encode = single_module_output


def activation_patching(ctx):
    """The clean and the corrupted forward, unpatched."""
    model, clean, corrupted = ctx.model, ctx.inputs, ctx.corrupted

    def run():
        return model(clean), model(corrupted)

    return run


def steered_generation(ctx):
    """transformers' greedy `generate` of the same number of tokens, unsteered."""
    native, x = native_model(ctx.model), ctx.inputs

    def run():
        return native.generate(x, **decoders.generate_kwargs(ctx.model, x))

    return run


def generated_token_attribution(ctx):
    """The greedy step, then a forward with autograd on and no backward (nothing attached to take one from)."""
    model, x = ctx.model, ctx.inputs

    def run():
        with torch.no_grad():
            model(x)
        return model(x).detach()

    return run


from .raw_attribution_patching import attribution_patching  # noqa: E402,F401
from .raw_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
