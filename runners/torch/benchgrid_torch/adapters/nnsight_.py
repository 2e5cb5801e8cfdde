"""nnsight: `NNsight(model).trace(x)` blocks that read, save and assign module outputs (nnsight 0.8 API).

Inside a trace nnsight 0.8 hands out the module's real output, so a tuple output (attention's `(output,
weights)`) is read and assigned through its first element, as every tool does (site_output.py).
"""

import torch
from benchgrid_harness.subjects import native_model
from nnsight import NNsight

from benchgrid_torch import decoders
from benchgrid_torch.site_output import first, replace_first


def _wrap(ctx):
    """The model wrapped once in prepare, and the envoy of the site module."""
    model = NNsight(ctx.model)
    return model, model.get(ctx.site)


def single_module_output(ctx):
    """The site's output from a whole traced forward (the contract computes the model's output too)."""
    model, site = _wrap(ctx)
    x = ctx.inputs

    def run():
        with model.trace(x):
            output = first(site.output).save()
        return output

    return run


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
    model, site = _wrap(ctx)
    x = ctx.inputs

    def run():
        with model.trace(x):
            output = first(site.output).save()
            logits = model.output.save()
        return output, logits

    return run


def replacement_edit(ctx):
    """Logits with the site's output replaced by zeros (assigning `.output` swaps what flows on)."""
    model, site = _wrap(ctx)
    x = ctx.inputs

    def run():
        with model.trace(x):
            site.output = replace_first(site.output, torch.zeros_like(first(site.output)))
            logits = model.output.save()
        return logits

    return run


def repeated_steering(ctx):
    """Stacked logits, one trace per strength s with the site output + s * direction."""
    model, site = _wrap(ctx)
    x, direction, strengths = ctx.inputs, ctx.direction, ctx.strengths

    def run():
        steered = []
        for s in strengths:
            with model.trace(x):
                site.output = replace_first(site.output, first(site.output) + s * direction)
                steered.append(model.output.save())
        return torch.stack(steered)

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output), read inside `with loss.backward():`."""
    model, site = _wrap(ctx)
    x, target = ctx.inputs, ctx.target

    def run():
        with model.trace(x):
            output = first(site.output)
            loss = model.output[:, target].sum()
            # nnsight 0.8 serves `.grad` only inside a backward block opened on the loss
            # (nnsight/intervention/backward.py); `.backward()` also accumulates into the parameters' .grad.
            with loss.backward():
                gradient = output.grad.save()
        return gradient

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, one whole traced forward per batch, concatenated in order."""
    model, site = _wrap(ctx)
    batches = ctx.batches

    def run():
        outputs = []
        for batch in batches:
            with model.trace(batch):
                outputs.append(first(site.output).save())
        return torch.cat(outputs)

    return run


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

    model = TransformersModel(native_model(ctx.model), task="text-generation",
                              tokenizer=decoders.tokenizer(ctx.model.config.vocab_size))
    return model, model.get(ctx.site)


def residual_cache(ctx):
    """Every block's output saved from one traced forward, stacked in block order."""
    if ctx.blocks is None:
        ctx.unsupported(f"residual_cache reads a ModuleList of blocks; {ctx.site!r} is not one")
    model = NNsight(ctx.model)
    blocks = [model.get(f"{ctx.site}.{i}") for i in range(len(ctx.blocks))]
    x = ctx.inputs

    def run():
        with model.trace(x):
            # A list saved once and appended to, as nnsight's docs collect per-layer values (a comprehension
            # inside a trace body is not rewritten by nnsight: its result never reaches the caller).
            outputs = list().save()
            for block in blocks:
                outputs.append(decoders.first(block.output))
        return torch.stack(outputs)

    return run


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

    def run():
        with model.trace() as tracer:
            barrier = tracer.barrier(2)
            with tracer.invoke(clean):
                kept = decoders.first(site.output)[:, position]
                barrier()
            with tracer.invoke(corrupted):
                barrier()
                decoders.first(site.output)[:, position] = kept
                logits = model.output.logits.save()
        return decoders.logit_difference(logits, ctx.params)

    return run


def steered_generation(ctx):
    """docs/usage/iter-all-next.md: `model.generate(...)`, the addition under `tracer.all()` in one invoke and
    `tracer.result` read in a second, empty invoke (docs/gotchas/iteration.md's recommended pattern)."""
    model, site = _language_model(ctx)
    x, add = _prompt(ctx, ctx.inputs), decoders.steering(ctx)

    def run():
        with model.generate(**decoders.generate_kwargs(ctx.model)) as tracer:
            with tracer.invoke(x):
                for _ in tracer.all():
                    decoders.first(site.output)[:] += add
            with tracer.invoke():
                tokens = tracer.result.save()
        return tokens

    return run


def sae_encode(ctx):
    """The site's output saved from one trace, encoded by the autoencoder's arithmetic written out."""
    model, site = _wrap(ctx)
    x, sae = ctx.inputs, ctx.sae

    def run():
        with model.trace(x):
            activation = decoders.first(site.output).save()
        return decoders.sae_encode(activation, sae)

    return run


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
            probability = torch.softmax(model.output[:, -1], dim=-1).gather(1, token[:, None]).sum()
            with probability.backward():
                gradient = activation.grad.save()
        return kept.detach() * gradient

    return run


from .nnsight_attribution_patching import attribution_patching  # noqa: E402,F401
from .nnsight_ablation import logit_lens, zero_ablation, mean_ablation, head_ablation  # noqa: E402,F401
