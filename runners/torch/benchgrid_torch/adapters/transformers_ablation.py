"""transformers itself: logit_lens from `output_hidden_states=True` (docs/contracts.md, "Methods"); the ablations are
edits, which transformers has no flag for (module hooks: the `hooks` row, as the specs' reasons say).

`hidden_states[i + 1]` is block i's output (the last one untied from the final norm, as residual_cache does), and
the lens applies the model's own final norm and `get_output_embeddings()` to each at the last position, the way
the logit lens is written with transformers alone.
"""

from benchgrid_harness.subjects import native_model

from benchgrid_torch import ablation, decoders

from .transformers_ import _untie_last


def logit_lens(ctx):
    """`hidden_states[1:]` of one call at the last position, through the final norm and the output embeddings."""
    blocks = ablation.lens_blocks(ctx)
    if blocks != decoders.recorded_blocks(ctx.model):
        ctx.unsupported(
            f"output_hidden_states returns the outputs of the model's blocks; {ctx.site!r} is not that list"
        )
    _untie_last(ctx)
    (_, norm), (_, unembed) = ablation.final_norm(ctx), ablation.unembedding(ctx)
    model, x = native_model(ctx.model), ctx.inputs
    mask = decoders.mask_kwargs(ctx.model, x)  # padded text: the mask the subject applies

    def run():
        hidden = model(x, output_hidden_states=True, **mask).hidden_states[1:]
        return ablation.lens([ablation.last(h) for h in hidden], norm, unembed)

    return run
