"""nnterp 1.3.0: `StandardizedTransformer`, nnsight's LanguageModel with every architecture's modules renamed to
one layout (`layers`, `self_attn`, `mlp`, `ln_final`, `lm_head`) and accessors over them.

Idioms from nnterp's README and docs: `with model.trace(x): model.layers_output[i]` (also `attentions_output`,
`mlps_output`, `token_embeddings`, `model.logits`), assignment to an accessor to edit, `model.steer(layers,
steering_vector, factor)` to add a vector to a layer's output, `StandardizedTransformer(...,
enable_attention_probs=True)` and `model.attention_probabilities[i]` for attention probabilities. A site nnterp
has no accessor for (a norm inside a block, a projection) is read at the renamed module's nnsight envoy, as
nnterp's docs say for anything the accessors do not name. It runs in its own environment: nnterp 1.3.0 imports `nnsight.intervention.tracing.globals`,
which nnsight 0.8 removed, so it needs nnsight 0.7. The trace bodies it shares with the nnsight adapter (nnsight's
idioms, which nnterp inherits) are written once in benchgrid_torch/traces.py, over `_Site` and `model.logits`.
"""

import torch
from benchgrid_harness.subjects import native_model
from nnterp import StandardizedTransformer

from benchgrid_torch import decoders, traces


def _load(ctx, **kwargs):
    """The subject standardised (nnterp checks its renaming with a test forward here, in prepare)."""
    decoders.unpadded(ctx, "nnterp's StandardizedTransformer as this adapter calls it")
    return StandardizedTransformer(
        native_model(ctx.model), tokenizer=decoders.tokenizer(ctx.model.config.vocab_size), **kwargs
    )


class _Site:
    """The nnterp accessor of one site's output: read with `.get()`, replaced with `.set(value)`.

    A block, its attention and MLP, the token embeddings and the final norm have nnterp accessors; any other
    module (a norm inside a block, a projection) is the renamed module's own envoy, which nnterp's docs point to
    for everything the accessors do not name (`model.layers[1].input_layernorm.output`)."""

    def __init__(self, model, ctx, path=None):
        module = ctx.model.get_submodule(path or ctx.site)
        self.model = model
        self.name, self.index = self._accessor(model, module)
        self.envoy = None
        if self.name is None:
            self.envoy = next((e for e in model.modules() if e._module is module), None)
            if self.envoy is None:
                ctx.unsupported(f"nnterp's renamed model has no module {path or ctx.site!r}")

    @staticmethod
    def _accessor(model, module):
        for i in range(model.num_layers):
            for name, envoy in (
                ("layers_output", model.layers[i]),
                ("attentions_output", model.attentions[i]),
                ("mlps_output", model.mlps[i]),
            ):
                if envoy._module is module:
                    return name, i
        if model.embed_tokens._module is module:
            return "token_embeddings", None
        return None, None

    def get(self):
        if self.envoy is not None:
            return decoders.first(self.envoy.output)
        accessor = getattr(self.model, self.name)
        return accessor if self.index is None else accessor[self.index]

    def set(self, value):
        if self.envoy is not None:
            self.envoy.output = decoders.replace_first(self.envoy.output, value)
        elif self.index is None:
            setattr(self.model, self.name, value)
        else:
            getattr(self.model, self.name)[self.index] = value


def _prepared(ctx):
    model = _load(ctx)
    return model, _Site(model, ctx)


def _layers(ctx, contract):
    """(model, the `_Site` of every layer: `model.layers_output[i]`) for a contract over the whole stack, whose site
    must be the model's own blocks (nnterp's layers)."""
    if ctx.blocks is None or ctx.blocks != decoders.recorded_blocks(ctx.model):
        ctx.unsupported(f"{contract} reads the model's blocks (nnterp's layers); {ctx.site!r} is not that list")
    model = _load(ctx)
    return model, [_Site(model, ctx, f"{ctx.site}.{i}") for i in range(model.num_layers)]


def _logits(model):
    """The logits inside a trace: nnterp's `model.logits` accessor."""
    return model.logits


def single_module_output(ctx):
    """The site's accessor saved from one trace."""
    return traces.output(*_prepared(ctx), ctx.inputs)


def matched_retained(ctx):
    """(site output, `model.logits`) saved from one trace."""
    return traces.output_and_logits(*_prepared(ctx), _logits, ctx.inputs)


def replacement_edit(ctx):
    """`model.logits` with zeros assigned to the site's accessor."""
    return traces.edited(*_prepared(ctx), _logits, ctx.inputs, torch.zeros_like)


def repeated_steering(ctx):
    """Stacked logits, one trace per strength: `model.steer(layers=i, steering_vector=direction, factor=s)` at a
    block, the addition assigned to the accessor elsewhere."""
    model, site = _prepared(ctx)
    x, direction = ctx.inputs, ctx.direction

    def steer(s):
        if site.name == "layers_output":
            model.steer(layers=site.index, steering_vector=direction, factor=s)
        else:
            site.set(site.get() + s * direction)

    return traces.steered(model, _logits, x, ctx.strengths, steer)


def same_site_gradient(ctx):
    """The site's `.grad` inside `with loss.backward():` (nnsight's idiom, which nnterp inherits)."""
    return traces.site_gradient(*_prepared(ctx), _logits, ctx.inputs, ctx.target)


def ordered_dataset_features(ctx):
    """The site's accessor over the dataset batches, one trace per batch, concatenated in order."""
    outputs = traces.outputs(*_prepared(ctx), ctx.batches)
    return lambda: torch.cat(outputs())


def residual_cache(ctx):
    """`model.layers_output[i]` of every layer, saved from one trace and stacked."""
    model, layers = _layers(ctx, "residual_cache")
    return traces.block_outputs(model, layers, ctx.inputs)


def attention_pattern(ctx):
    """`model.attention_probabilities[i]` of a model loaded with `enable_attention_probs=True`. nnterp asks for eager
    attention when it loads a model by name; a model handed over already built is switched here, as its user would."""
    decoders.eager(ctx.model)
    try:
        model = _load(ctx, enable_attention_probs=True)
    except Exception as exc:  # noqa: BLE001 - what nnterp raises here is the reason, found by running it
        ctx.unsupported(
            "nnterp 1.3.0 cannot load this model with enable_attention_probs=True under transformers "
            f"{_transformers_version()}: {type(exc).__name__}: {_last_line(exc)}"
        )
    site = _Site(model, ctx)
    if site.name != "attentions_output":
        ctx.unsupported(f"attention_probabilities are per layer; {ctx.site!r} is not an attention module")
    x, layer = ctx.inputs, site.index

    def run():
        with model.trace(x):
            pattern = model.attention_probabilities[layer].save()
        return pattern

    return run


def activation_patching(ctx):
    """Two invokes in one trace (nnsight's patching pattern, which nnterp's docs follow), the clean layer output at
    the position handed over with `tracer.barrier(2)`; both invokes run as one batched forward.

    Each invoke gets what nnterp's tokenizer hands its users for a prompt: the token ids with their attention mask.
    nnsight 0.7's `LanguageModel._batch` (nnterp's) fills a missing mask with ones for the first invoke only; a later
    invoke given bare token ids gets an all-zero mask row, so the corrupted input's every key would be masked out
    and its logits would be another forward's. With the mask given, the batched forward is the two forwards'
    arithmetic (nnsight 0.8 fills every invoke's missing mask with ones)."""
    model, site = _prepared(ctx)
    clean, corrupted, position = _tokenized(ctx.inputs), _tokenized(ctx.corrupted), int(ctx.params["position"])
    ctx.note("nnterp (nnsight) runs the clean and the corrupted invoke as one forward of twice the batch")
    ctx.note(
        "under nnsight 0.7, model.logits read inside the corrupted invoke holds both invokes' rows; the "
        "corrupted rows (the second half) are the result"
    )
    batch = ctx.inputs.shape[0]
    rows = slice(batch, batch + ctx.corrupted.shape[0])

    patched = traces.patched(model, site, _logits, clean, corrupted, position)

    def run():
        logits = patched()
        if logits.shape[0] != ctx.corrupted.shape[0]:
            logits = logits[rows]
        return decoders.logit_difference(logits, ctx.params)

    return run


def _tokenized(ids):
    """Token ids as a tokenizer returns a batch of unpadded prompts: `input_ids` and an all-ones `attention_mask`."""
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}


def steered_generation(ctx):
    """`model.generate(...)` with `model.steer(...)` under `tracer.all()`, and `tracer.result` read in an empty
    invoke after it (nnsight's generation pattern)."""
    model, site = _prepared(ctx)
    if site.name != "layers_output":
        ctx.unsupported(f"model.steer adds to a layer's output; {ctx.site!r} is not a layer")
    x, layer, strength = ctx.inputs, site.index, float(ctx.params["strength"])

    def step():
        model.steer(layers=layer, steering_vector=ctx.vector, factor=strength)

    return traces.generated(model, decoders.generate_kwargs(ctx.model), x, step)


def _transformers_version():
    import transformers

    return transformers.__version__


def _last_line(exc):
    """The last non-empty line of an exception's text (nnsight wraps the original traceback into it)."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


from .nnterp_attribution_patching import attribution_patching  # noqa: E402,F401
from .nnterp_ablation import logit_lens, zero_ablation, mean_ablation  # noqa: E402,F401
