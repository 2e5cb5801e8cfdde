"""What the decoder contracts share across adapters: their definitions in code (docs/contracts.md, "Decoder
contracts"), and the few facts about a transformers causal LM that several tools need (its blocks, a site's
place among them, eager attention, a tokenizer that downloads nothing)."""

import re

import torch
from benchgrid_harness.hooked import with_hooks
from benchgrid_harness.subjects import native_model
from benchgrid_harness.text import pad_id, padding_mask

#: steered_generation: how many tokens every tool generates (greedy, never stopped early).
NEW_TOKENS = 16


def first(output):
    """A module's tensor: the output itself, or the first element of a tuple output (decoder blocks, attention)."""
    return output[0] if isinstance(output, (tuple, list)) else output


def replace_first(output, value):
    """`output` with its tensor (or a tuple output's first element) replaced by `value`."""
    if isinstance(output, tuple):
        return (value,) + output[1:]
    return value


def forward_keeping(model, site, inputs):
    """The site module's tensor from one forward of `model`, kept by a forward hook removed after the call."""
    kept = []
    with_hooks([site.register_forward_hook(lambda _module, _args, output: kept.append(first(output)))], model, inputs)
    return kept[0]


def patched(corrupted_activation, clean_activation, position):
    """activation_patching's edit: the corrupted run's site tensor with one sequence position taken from the clean run."""
    out = corrupted_activation.clone()
    out[:, position] = clean_activation[:, position]
    return out


def logit_difference(logits, params):
    """activation_patching's result: logits[:, -1, answer_token] - logits[:, -1, wrong_token], one per sequence."""
    return logits[:, -1, int(params["answer_token"])] - logits[:, -1, int(params["wrong_token"])]


def attribution_patching(clean, corrupted, gradients):
    """attribution_patching's result from every block's clean and corrupted output and the gradient there of the
    corrupted run's summed logit difference (lists in block order, each [batch, seq, d]): per block
    ((clean - corrupted) * gradient).sum(-1), stacked to [layers, batch, seq] (docs/contracts.md)."""
    return torch.stack([((c - k) * g).sum(dim=-1) for c, k, g in zip(clean, corrupted, gradients)])


def sae_encode(activation, sae):
    """A standard sparse autoencoder's encoder, by hand: relu((x - b_dec) @ W_enc + b_enc) (sae-lens's StandardSAE
    with apply_b_dec_to_input=True)."""
    return torch.relu((activation - sae["b_dec"]) @ sae["W_enc"] + sae["b_enc"])


def next_token_probability(logits, token):
    """generated_token_attribution's target: the probability at the last position of each sequence's greedy next
    token (`token`, picked by an earlier step without gradients), summed over the batch."""
    return torch.softmax(logits[:, -1], dim=-1).gather(1, token[:, None]).sum()


def blocks(ctx, contract):
    """The blocks a contract over the whole stack reads: the ModuleList site's children in order (unsupported for a
    site that is no ModuleList of blocks)."""
    if ctx.blocks is None:
        ctx.unsupported(f"{contract} reads a ModuleList of blocks; {ctx.site!r} is not one")
    return ctx.blocks


def block_paths(ctx, contract):
    """The module paths of `blocks(ctx, contract)`, for tools that name modules by path."""
    return [f"{ctx.site}.{i}" for i in range(len(blocks(ctx, contract)))]


def steering(ctx):
    """steered_generation's addition: strength * vector (the vector is drawn by the harness from vector_seed)."""
    return float(ctx.params["strength"]) * ctx.vector


def mask_kwargs(model, ids):
    """For padded text: the attention mask and position ids of `ids` as keyword arguments of a transformers (or
    TransformerLens) forward, the same ones the subject's own forward applies; {} for unpadded inputs."""
    pad = pad_id(model)
    if pad is None:
        return {}
    mask, positions = padding_mask(ids, pad)
    return {"attention_mask": mask, "position_ids": positions}


def unpadded(ctx, how):
    """Stop with `unsupported` where the subject's prompts are padded and the tool's idiom (`how`) takes no mask."""
    if ctx.pad_id is not None:
        ctx.unsupported(f"padded prompts need an attention mask; {how} takes token ids only here")


def generate_kwargs(model, inputs=None):
    """What a transformers `generate` call needs for the contract: greedy, exactly NEW_TOKENS new tokens; for
    padded text, the prompts' attention mask (generate derives the position ids from it)."""
    # eos_token_id=None: a sequence never stops early at an end-of-sequence token, so every tool generates (and
    # every witness counts) the same NEW_TOKENS forwards. pad_token_id=vocab_size, an id no input holds:
    # transformers infers the attention mask as `input_ids != pad_token_id` when none is given, so a pad id that
    # is a real token (0, say) would mask that token out of the prompt.
    pad = pad_id(model)
    kwargs = {
        "max_new_tokens": NEW_TOKENS,
        "do_sample": False,
        "eos_token_id": None,
        "pad_token_id": model.config.vocab_size if pad is None else pad,
    }
    if pad is not None and inputs is not None:
        kwargs["attention_mask"] = padding_mask(inputs, pad)[0]
    return kwargs


def eager(model):
    """Switch the subject to transformers' eager attention, the implementation that materialises the attention
    probabilities (SDPA never does); it applies to every layer, and it is part of the cost of reading them."""
    native_model(model).set_attn_implementation("eager")


def _recorded(model, key):
    """The modules whose outputs transformers records for `output_<key>=True`, in model order."""
    inner = getattr(native_model(model), "base_model", model)
    spec = (getattr(inner, "_can_record_outputs", None) or {}).get(key)
    target = getattr(spec, "target_class", spec)
    if not isinstance(target, type):
        return []
    return [m for m in model.modules() if isinstance(m, target)]


def recorded_blocks(model):
    """The decoder blocks in order: the modules whose outputs transformers records as `hidden_states`."""
    return _recorded(model, "hidden_states")


def recorded_attention(model):
    """Each layer's attention module in order: the modules whose probabilities transformers records as `attentions`."""
    return _recorded(model, "attentions")


def block_of(model, path):
    """(index of the block the site `path` is in or is, the path inside that block or '') for a decoder; else None."""
    blocks = {id(b): i for i, b in enumerate(recorded_blocks(model))}
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        prefix = ".".join(parts[:cut])
        try:
            module = model.get_submodule(prefix)
        except AttributeError:
            continue
        if id(module) in blocks:
            return blocks[id(module)], ".".join(parts[cut:])
    return None


def bracketed(path):
    """A module path with list indices in brackets (`transformer.h.4.mlp` -> `transformer.h[4].mlp`), as pyvene
    and nnsight's attribute access spell it."""
    return re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", path)


def tokenizer(vocab_size):
    """A word-level tokenizer over `t0 ... t{vocab_size-1}` built in memory, for tools that insist on one (token ids
    are the subject's; nothing is downloaded). Its one special token, `<pad>`, has the id vocab_size: it is never in
    an input, so no tool mistakes a real token for padding."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import WhitespaceSplit
    from transformers import PreTrainedTokenizerFast

    words = {f"t{i}": i for i in range(vocab_size)}
    words["<pad>"] = vocab_size
    backend = Tokenizer(WordLevel(words, unk_token="<pad>"))
    backend.pre_tokenizer = WhitespaceSplit()
    # No bos/eos token: a tool that prepends one (inseq does for a model whose config names one) must not add an
    # id the model does not have; generation stopping is switched off by the contract anyway.
    return PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="<pad>", pad_token="<pad>")


def text_of(ids):
    """The tokenizer's text for a row of token ids (so that tokenizing it gives the ids back)."""
    return " ".join(f"t{int(i)}" for i in ids)
