"""nnsight: `NNsight(model).trace(x)` blocks that read, save and assign module outputs (nnsight 0.8 API).

Inside a trace nnsight 0.8 hands out the module's real output, so a tuple output (attention's `(output,
weights)`) is read and assigned through its first element, as every tool does (site_output.py). The trace bodies
this adapter shares with nnterp's (nnsight underneath) are written once in benchgrid_torch/traces.py.
"""

import torch
from benchgrid_harness.subjects import native_model
from nnsight import NNsight

from benchgrid_torch import decoders, traces
from benchgrid_torch.site_output import first


def _wrap(ctx):
    """The model wrapped once in prepare, and the envoy of the site module."""
    model = NNsight(ctx.model)
    return model, model.get(ctx.site)


def _site(ctx):
    """The wrapped model and the site as traces.py reads and assigns it (its envoy's `.output`)."""
    model, envoy = _wrap(ctx)
    return model, traces.Envoy(envoy)


def _logits(model):
    """The logits inside a trace of an `NNsight` wrapper: the model's own output."""
    return model.output


def single_module_output(ctx):
    """The site's output from a whole traced forward (the contract computes the model's output too)."""
    return traces.output(*_site(ctx), ctx.inputs)


def site_output_stopped(ctx):
    """The site's output; `tracer.stop()` ends the forward once it is saved."""
    model, site = _wrap(ctx)
    x = ctx.inputs

    def run():
        with model.trace(x) as tracer:
            output = first(site.output).save()
            tracer.stop()
        return output

    return run


def matched_retained(ctx):
    """(site output, logits) saved from one traced forward."""
    return traces.output_and_logits(*_site(ctx), _logits, ctx.inputs)


def replacement_edit(ctx):
    """Logits with the site's output replaced by zeros (assigning `.output` swaps what flows on)."""
    return traces.edited(*_site(ctx), _logits, ctx.inputs, torch.zeros_like)


def repeated_steering(ctx):
    """Stacked logits, one trace per strength s with the site output + s * direction."""
    model, site = _site(ctx)
    x, direction, strengths = ctx.inputs, ctx.direction, ctx.strengths

    def steer(s):
        site.set(site.get() + s * direction)

    return traces.steered(model, _logits, x, strengths, steer)


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output), read inside `with loss.backward():`."""
    return traces.site_gradient(*_site(ctx), _logits, ctx.inputs, ctx.target)


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, one whole traced forward per batch, concatenated in order."""
    outputs = traces.outputs(*_site(ctx), ctx.batches)
    return lambda: torch.cat(outputs())


# Decoder contracts (docs/contracts.md): the idioms of nnsight's docs (docs/patterns/*.md in the nnsight
# repository, mirrored on nnsight.net). A causal LM is wrapped the way those docs wrap one:
# `TransformersModel(model, task="text-generation")` (nnsight 0.8's name for the deprecated LanguageModel),
# which batches several `tracer.invoke(...)` inputs and generates.


def _prompt(ctx, ids):
    """What an invoke of the language model is given: the token ids, or for padded prompts their encoding with the
    attention mask (nnsight then derives the left padding's position ids from it, as transformers' generate does)."""
    mask = decoders.mask_kwargs(ctx.model, ids)
    return ids if not mask else {"input_ids": ids, "attention_mask": mask["attention_mask"]}


def _language_model(ctx):
    """The subject as nnsight wraps a causal LM, with an in-memory tokenizer (nnsight wants one; token ids are used)."""
    from nnsight.modeling.transformers import TransformersModel

    model = TransformersModel(
        native_model(ctx.model), task="text-generation", tokenizer=decoders.tokenizer(ctx.model.config.vocab_size)
    )
    return model, traces.Envoy(model.get(ctx.site))


def residual_cache(ctx):
    """Every block's output saved from one traced forward, stacked in block order."""
    paths = decoders.block_paths(ctx, "residual_cache")
    model = NNsight(ctx.model)
    blocks = [traces.Envoy(model.get(path)) for path in paths]
    return traces.block_outputs(model, blocks, ctx.inputs)


def attention_pattern(ctx):
    """The attention module's second output (its probabilities) under eager attention, saved from one trace."""
    decoders.eager(ctx.model)
    model, site = _wrap(ctx)
    x = ctx.inputs

    def run():
        with model.trace(x):
            pattern = site.output[1].save()
        return pattern

    return run


def activation_patching(ctx):
    """docs/patterns/activation-patching.md: two invokes in one trace, the clean one handing its activation at the
    position to the corrupted one through `tracer.barrier(2)`. nnsight batches both invokes into one forward."""
    model, site = _language_model(ctx)
    clean, corrupted, position = _prompt(ctx, ctx.inputs), _prompt(ctx, ctx.corrupted), int(ctx.params["position"])
    ctx.note("nnsight runs the clean and the corrupted invoke as one forward of twice the batch")

    def logits(language_model):
        return language_model.output.logits

    patched = traces.patched(model, site, logits, clean, corrupted, position)
    return lambda: decoders.logit_difference(patched(), ctx.params)


def steered_generation(ctx):
    """docs/usage/iter-all-next.md: `model.generate(...)`, the addition under `tracer.all()` in one invoke and
    `tracer.result` read in a second, empty invoke (docs/gotchas/iteration.md's recommended pattern)."""
    model, site = _language_model(ctx)
    x, add = _prompt(ctx, ctx.inputs), decoders.steering(ctx)

    def step():
        site.get()[:] += add

    return traces.generated(model, decoders.generate_kwargs(ctx.model), x, step)


def sae_encode(ctx):
    """The site's output saved from one trace, encoded by the autoencoder's arithmetic written out."""
    output, sae = traces.output(*_site(ctx), ctx.inputs), ctx.sae
    return lambda: decoders.sae_encode(output(), sae)


def generated_token_attribution(ctx):
    """The greedy step from a trace's logits, then docs/patterns/gradient-based-attribution.md's input x gradient:
    `requires_grad_` on the site's output and `with metric.backward(): grad = act.grad.save()`. That backward
    reaches the parameters too (their .grad is filled): the witnesses mark it."""
    model, site = _wrap(ctx)
    x = ctx.inputs

    def run():
        with torch.no_grad(), model.trace(x):
            token = model.output[:, -1].argmax(dim=-1).save()
        with model.trace(x):
            activation = decoders.first(site.output)
            activation.requires_grad_(True)
            kept = activation.save()
            probability = decoders.next_token_probability(model.output, token)
            with probability.backward():
                gradient = activation.grad.save()
        return kept.detach() * gradient

    return run


from .nnsight_attribution_patching import attribution_patching  # noqa: E402,F401
from .nnsight_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
