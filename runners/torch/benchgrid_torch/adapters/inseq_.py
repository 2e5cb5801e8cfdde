"""inseq 0.7.1: attribution of a generated token, `inseq.load_model(model, "input_x_gradient")` and
`model.attribute(texts, generation_args=...)`, as inseq's README and quickstart write it.

inseq generates the continuation itself (here one greedy token) and attributes each generated token's
probability (`attributed_fn="probability"`) to the input embeddings; for a decoder-only model the scores are
`target_attributions`, one row per position of prompt plus generation and one column per generated token,
before any aggregation over the embedding dimension. inseq works on text, so the prompt's token ids go in as
the text of an in-memory word-level tokenizer (`t17 t4 ...`) whose ids are the subject's; nothing is downloaded.
inseq 0.7.1 pins typeguard<=2.13.3, which transformer-lens 4 refuses, so it runs in its own environment.
"""

import inseq
import torch
from benchgrid_harness.subjects import native_model

from benchgrid_torch import decoders


def generated_token_attribution(ctx):
    """input x gradient of the greedy next token's probability at the token embeddings, from `model.attribute`."""
    decoders.unpadded(ctx, "inseq's attribute, given the prompts' text in the adapter's word-level tokenizer,")
    model = native_model(ctx.model)
    if ctx.site_module is not model.get_input_embeddings():
        ctx.unsupported(f"inseq attributes to the input embeddings; {ctx.site!r} is not the token embedding module")
    tokenizer = decoders.tokenizer(model.config.vocab_size)
    # inseq embeds a baseline of `tokenizer.unk_token_id` for every method, input x gradient too, which never uses it
    # (inseq/models/huggingface_model.py `encode(return_baseline=True)`, data/attribution.py): the unknown token must
    # be one the model has, or the embedding lookup fails. `t0` never stands for an unknown word: every input's text
    # is made of the vocabulary's own words.
    tokenizer.unk_token = "t0"
    attributor = inseq.load_model(model, "input_x_gradient", tokenizer=tokenizer)
    texts = [decoders.text_of(row) for row in ctx.inputs]
    length = ctx.inputs.shape[1]

    def run():
        out = attributor.attribute(
            texts,
            generation_args={"max_new_tokens": 1, "do_sample": False},
            attributed_fn="probability",
            show_progress=False,
        )
        return torch.stack([sequence.target_attributions[:length, 0] for sequence in out.sequence_attributions])

    return run
