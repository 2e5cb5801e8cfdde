"""Hugging Face transformers itself: the model's own output flags, the way most users capture today.

`model(input_ids, output_hidden_states=True).hidden_states` and `output_attentions=True`, from transformers'
model-outputs docs; `inputs_embeds=` with `torch.autograd.grad` for an input attribution. In transformers 5 the
flags are served by forward hooks the library installs on every block (and attention module) the first time a
flag is asked for (utils/output_capturing.py, `capture_outputs`), so a flag costs hooks, like the `hooks` tool.

What the flags reach: the output of every block (`hidden_states[i + 1]` is block i's) and every layer's attention
probabilities. Any other site (an MLP, a norm, an attention module's output) is read with a module hook, which
is the `hooks` tool's row; this adapter says so and does not run. Edits (zeroing, steering, patching) have no
transformers flag either: they are module hooks too.
"""

import torch
from benchgrid_harness.subjects import native_model

from benchgrid_torch import decoders

FLAGS_ONLY = (
    "transformers' output flags return block outputs (hidden_states) and attention probabilities; "
    "{what} is read or edited with a module hook, which is the `hooks` tool's row"
)


def _hidden_state_index(ctx):
    """hidden_states index of the site's output: i + 1 for block i (0 is the embeddings' output)."""
    blocks = decoders.recorded_blocks(ctx.model)
    if ctx.site_module not in blocks:
        place = decoders.block_of(ctx.model, ctx.site or "")
        where = f"{ctx.site!r} ({type(ctx.site_module).__name__}{' inside a block' if place else ''})"
        ctx.unsupported(FLAGS_ONLY.format(what=where))
    index = blocks.index(ctx.site_module)
    if index == len(blocks) - 1:
        _untie_last(ctx)
    return index + 1


def _untie_last(ctx):
    """Make hidden_states[-1] the last block's output: by default transformers replaces it by the final norm's
    output (`tie_last_hidden_states`, documented in utils/output_capturing.py); the config switch turns that off."""
    ctx.model.config.tie_last_hidden_states = False
    ctx.note(
        "config.tie_last_hidden_states=False: by default transformers' hidden_states[-1] is the final "
        "norm's output, not the last block's"
    )


def single_module_output(ctx):
    """hidden_states[i + 1] of `model(x, output_hidden_states=True)`: block i's output."""
    model, x, index = native_model(ctx.model), ctx.inputs, _hidden_state_index(ctx)
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        return model(x, output_hidden_states=True, **mask).hidden_states[index]

    return run


def matched_retained(ctx):
    """(block output, logits) from one call with output_hidden_states=True."""
    model, x, index = native_model(ctx.model), ctx.inputs, _hidden_state_index(ctx)
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        out = model(x, output_hidden_states=True, **mask)
        return out.hidden_states[index], out.logits

    return run


def same_site_gradient(ctx):
    """The block's hidden state with `retain_grad()`, then `loss.backward()` (filling the parameters' .grad)."""
    model, x, index, target = native_model(ctx.model), ctx.inputs, _hidden_state_index(ctx), ctx.target
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        out = model(x, output_hidden_states=True, **mask)
        hidden = out.hidden_states[index]
        hidden.retain_grad()
        out.logits[:, target].sum().backward()
        return hidden.grad

    return run


def ordered_dataset_features(ctx):
    """The block's hidden states over the dataset batches, one call per batch, concatenated in order."""
    model, batches, index = native_model(ctx.model), ctx.batches, _hidden_state_index(ctx)
    masks = [decoders.mask_kwargs(ctx.model, batch) for batch in batches]

    def run():
        return torch.cat(
            [
                model(batch, output_hidden_states=True, **masks[i]).hidden_states[index]
                for i, batch in enumerate(batches)
            ]
        )

    return run


def residual_cache(ctx):
    """`hidden_states[1:]` of one call: every block's output (the last one untied from the final norm)."""
    if ctx.blocks is None or ctx.blocks != decoders.recorded_blocks(ctx.model):
        ctx.unsupported(
            f"output_hidden_states returns the outputs of the model's blocks; {ctx.site!r} is not that list"
        )
    _untie_last(ctx)
    model, x = native_model(ctx.model), ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        return torch.stack(model(x, output_hidden_states=True, **mask).hidden_states[1:])

    return run


def attention_pattern(ctx):
    """`attentions[layer]` of `model(x, output_attentions=True)`, the model switched to eager attention first (the
    documented way: SDPA does not return probabilities)."""
    layers = decoders.recorded_attention(ctx.model)
    if ctx.site_module not in layers:
        ctx.unsupported(FLAGS_ONLY.format(what=f"{ctx.site!r} (not an attention module)"))
    decoders.eager(ctx.model)
    model, x, layer = native_model(ctx.model), ctx.inputs, layers.index(ctx.site_module)
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        return model(x, output_attentions=True, **mask).attentions[layer]

    return run


def sae_encode(ctx):
    """The block's hidden state from one call, encoded by the autoencoder's arithmetic written out."""
    model, x, index, sae = native_model(ctx.model), ctx.inputs, _hidden_state_index(ctx), ctx.sae
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        return decoders.sae_encode(model(x, output_hidden_states=True, **mask).hidden_states[index], sae)

    return run


def generated_token_attribution(ctx):
    """`generate(max_new_tokens=1)` picks the token; then `model(inputs_embeds=...)` on the token embeddings with
    requires_grad, and torch.autograd.grad of the token's probability: input x gradient at the embeddings."""
    model = native_model(ctx.model)
    if ctx.site_module is not model.get_input_embeddings():
        ctx.unsupported(f"inputs_embeds= attributes to the token embeddings; {ctx.site!r} is not the embedding module")
    x, embed = ctx.inputs, model.get_input_embeddings()
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        token = model.generate(x, **dict(decoders.generate_kwargs(ctx.model, x), max_new_tokens=1))[:, -1]
        embeds = embed(x).detach().requires_grad_()
        logits = model(inputs_embeds=embeds, **mask).logits
        (gradient,) = torch.autograd.grad(decoders.next_token_probability(logits, token), embeds)
        return embeds.detach() * gradient

    return run


from .transformers_attribution_patching import attribution_patching  # noqa: E402,F401
from .transformers_ablation import logit_lens  # noqa: E402,F401
