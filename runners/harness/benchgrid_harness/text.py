"""Text inputs (`inputs: {kind: text}`): the request's prompts tokenized by the subject's tokenizer, left-padded
to one length, and the padding mask every tool applies (docs/spec.md, "Text inputs").

Left padding puts each prompt's last real token at position -1, where the decoder contracts read the next-token
logits and where generation continues, as transformers' and TransformerLens's generation pad. The mask is not a
separate tensor that each tool could forget: it is `input_ids != pad_id`, so the subject's own forward, the
tools that call it and those that get the mask explicitly (`decoders.mask_kwargs`) derive the same mask and the
same position ids from the same ids. That is why a prompt may not contain the pad id itself.
"""

import hashlib

import torch

from . import weights as weights_
from .errors import HarnessError


class ByteTokenizer:
    """`tokenizer: bytes`: each UTF-8 byte is a token (ids 0-255) and id 256 pads; needs a vocabulary of 257."""

    pad_token_id = 256
    eos_token_id = None
    name_or_path = "bytes"

    def __call__(self, text):
        return {"input_ids": list(text.encode("utf-8"))}


def load_tokenizer(tokenizer_spec, model_spec):
    """The tokenizer the request names: `bytes`, a save_pretrained directory, a hub id in the local cache, or
    (`model`) the one saved with the subject's weights. Never downloads (local_files_only)."""
    kind = tokenizer_spec["kind"]
    if kind == "bytes":
        return ByteTokenizer()
    if kind == "model":
        weights = model_spec.get("weights")
        if weights is None or weights["kind"] == "state_dict":
            raise HarnessError(
                "inputs.tokenizer is the model's, but the model has no save_pretrained directory or hub id to read one from"
            )
        tokenizer_spec = weights
        kind = weights["kind"]
    where = tokenizer_spec["path"] if kind == "pretrained" else weights_.hub_snapshot(tokenizer_spec["id"])
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(where, local_files_only=True)
    except (OSError, ValueError, TypeError) as exc:
        raise HarnessError(f"cannot load a tokenizer from {where}: {exc}") from exc


def pad_id_of(tokenizer):
    """The id that pads: the tokenizer's pad token, else its end-of-sequence token (GPT-2 and Llama have no pad)."""
    for pad in (tokenizer.pad_token_id, tokenizer.eos_token_id):
        if pad is not None:
            return int(pad)
    raise HarnessError("the tokenizer has neither a pad token nor an end-of-sequence token to pad with")


def tokenize(input_spec, model_spec, vocab_rows):
    """(batch of every prompt, dataset batches, pad id, what the result records) from the request's prompts."""
    tokenizer = load_tokenizer(input_spec["tokenizer"], model_spec)
    pad = pad_id_of(tokenizer)
    rows = []
    for i, prompt in enumerate(input_spec["prompts"]):
        ids = [int(t) for t in tokenizer(prompt)["input_ids"]]
        if not ids:
            raise HarnessError(f"prompt {i + 1} tokenizes to no tokens")
        if pad in ids:
            raise HarnessError(
                f"prompt {i + 1} holds the pad id {pad} itself; the mask is input_ids != pad id, so "
                "it would be masked out (remove the end-of-sequence text from the prompt)"
            )
        rows.append(ids)
    largest = max(max(r) for r in rows + [[pad]])
    if vocab_rows is not None and largest >= vocab_rows:
        raise HarnessError(
            f"the tokenizer's ids reach {largest} but the model's embedding has {vocab_rows} rows; "
            "use the model's own tokenizer (or a model with a larger vocabulary)"
        )
    length = max(len(r) for r in rows)
    left = input_spec.get("padding_side", "left") == "left"
    padded = [([pad] * (length - len(r)) + r) if left else (r + [pad] * (length - len(r))) for r in rows]
    batch = torch.tensor(padded, dtype=torch.int64)
    record = {
        "prompts": len(rows),
        "lengths": [len(r) for r in rows],
        "padded_to": length,
        "padding_side": "left" if left else "right",
        "pad_id": pad,
        "tokenizer": str(getattr(tokenizer, "name_or_path", "") or input_spec["tokenizer"]["kind"]),
        "sha256": hashlib.sha256(batch.numpy().tobytes()).hexdigest(),
    }
    return batch, list(torch.split(batch, input_spec["batch_size"])), pad, record


def pad_id(model):
    """The pad id a subject of padded text carries (`build_subject` sets it), or None for any other subject."""
    return model.__dict__.get("_benchgrid_pad_id")


def padding_mask(input_ids, pad):
    """(attention mask, position ids) of padded token ids: 1 where a token is real; positions count real tokens
    from 0, and padding gets position 1, transformers' and TransformerLens's own convention for left padding."""
    mask = (input_ids != pad).long()
    positions = mask.cumsum(-1) - 1
    positions.masked_fill_(mask == 0, 1)
    return mask, positions
