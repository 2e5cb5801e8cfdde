"""What logit_lens and the three ablations share across adapters (docs/contracts.md, "Methods"): the modules of a
transformers causal LM they reach (its final norm, its unembedding, an attention module's output projection and
its heads) and their arithmetic, written once so that every tool computes the same thing."""

import torch
from benchgrid_harness.errors import HarnessError
from benchgrid_harness.subjects import native_model
from benchgrid_harness.text import pad_id, padding_mask

from benchgrid_torch import decoders

#: The final norm's attribute on the base model, by architecture: GPT-2, Llama (and Qwen2, Gemma), GPT-NeoX.
_FINAL_NORMS = ("ln_f", "norm", "final_layer_norm")

#: The attention module's output projection, whose input is the heads' outputs side by side: GPT-2, Llama
#: (and Qwen2, Gemma), GPT-NeoX, PyTorch's MultiheadAttention.
_PROJECTIONS = ("c_proj", "o_proj", "dense", "out_proj")


def final_norm(ctx):
    """(path, module) of the subject's final norm, the one transformers applies after the last block."""
    native = native_model(ctx.model)
    base = getattr(native, "base_model", native)
    prefix = getattr(native, "base_model_prefix", "")
    for name in _FINAL_NORMS:
        module = getattr(base, name, None)
        if isinstance(module, torch.nn.Module):
            return (f"{prefix}.{name}" if base is not native and prefix else name), module
    ctx.unsupported(f"logit_lens needs the final norm; {type(native).__name__} has none of {list(_FINAL_NORMS)}")


def unembedding(ctx):
    """(path, module) of the subject's unembedding (transformers' output embeddings: `lm_head`)."""
    native = native_model(ctx.model)
    module = native.get_output_embeddings() if hasattr(native, "get_output_embeddings") else None
    if module is None:
        ctx.unsupported(f"logit_lens needs the unembedding; {type(native).__name__} has no output embeddings")
    path = next(name for name, m in ctx.model.named_modules() if m is module)
    return path, module


def lens_blocks(ctx):
    """The blocks whose outputs logit_lens reads: the ModuleList site's children (unsupported otherwise)."""
    return decoders.blocks(ctx, "logit_lens")


def last(hidden):
    """logit_lens's position: the last one of each sequence (prompts are padded on the left, so it is a real token)."""
    return hidden[:, -1]


def lens(residuals, norm, unembed):
    """logit_lens's result from each block's last-position residual ([batch, d] each, in block order): the final
    norm and the unembedding applied to each, stacked to [n_layer, batch, vocab]."""
    return torch.stack([unembed(norm(residual)) for residual in residuals])


def position_mean(activations, inputs, model):
    """mean_ablation's mean: the component's output averaged over every real position (padding left out) of every
    dataset sequence, one vector of the output's width. `activations` and `inputs` are per dataset batch."""
    pad = pad_id(model)
    rows = []
    for activation, ids in zip(activations, inputs):
        flat = activation.reshape(-1, activation.shape[-1])
        if pad is not None:
            flat = flat[padding_mask(ids, pad)[0].reshape(-1).bool()]
        rows.append(flat)
    return torch.cat(rows).mean(dim=0)


def mean_like(mean, output):
    """mean_ablation's replacement: the mean at every position of `output` (a new tensor, the output's shape)."""
    return mean.expand_as(output).clone()


def attention_heads(ctx):
    """(output projection path, its module, head index, head width) of head_ablation's site and `head` parameter."""
    site = ctx.site_module
    name = next((n for n in _PROJECTIONS if isinstance(getattr(site, n, None), torch.nn.Module)), None)
    if name is None:
        ctx.unsupported(
            f"head_ablation zeroes a head at an attention module's output projection; {ctx.site!r} "
            f"(a {type(site).__name__}) has none of {list(_PROJECTIONS)}"
        )
    config = getattr(ctx.model, "config", None)
    heads = getattr(config, "num_attention_heads", None) or getattr(site, "num_heads", None)
    if not heads:
        ctx.unsupported(f"head_ablation needs the number of heads; {type(ctx.model).__name__} does not say it")
    head = int(ctx.params["head"])
    if head >= heads:
        raise HarnessError(f"contract parameter head={head} is not a head of {ctx.site!r} (it has {heads})")
    projection = getattr(site, name)
    width = _in_features(projection) // heads
    return f"{ctx.site}.{name}", projection, head, width


def _in_features(projection):
    """The projection's input width: a Linear's in_features, GPT-2's Conv1D's weight rows."""
    if isinstance(projection, torch.nn.Linear):
        return projection.in_features
    return projection.weight.shape[0]


def zero_head(value, head, width):
    """head_ablation's edit: the projection's input ([..., heads * width]) with one head's slice set to zero (a new
    tensor; the heads' outputs sit side by side in head order, as every attention module here concatenates them)."""
    out = value.clone()
    out[..., head * width : (head + 1) * width] = 0
    return out
