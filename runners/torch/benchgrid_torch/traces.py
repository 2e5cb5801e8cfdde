"""nnsight's trace idioms, written once for the two adapters built on it: nnsight's own (an `NNsight` or
`TransformersModel` wrapper) and nnterp's (`StandardizedTransformer`, nnsight's LanguageModel renamed).

Each function gives one contract's run(), a trace body in the idioms of nnsight's docs (docs/patterns/*.md in the
nnsight repository): a `with model.trace(x):` block that reads a site, assigns it, or reads its `.grad` inside
`with loss.backward():`, and `.save()`s what leaves the trace. The adapters differ in how they reach a site and the
logits, so they hand those over: a site is an object with `get()` (its tensor, inside a trace) and `set(value)`,
and `logits(model)` is the model's logits inside a trace (`model.output` for an `NNsight` wrapper, `model.logits` for
nnterp).

A list collected across modules is saved once and appended to, as nnsight's docs collect per-layer values: a
comprehension inside a trace body is not rewritten by nnsight, so its result would never reach the caller.
"""

import torch

from benchgrid_torch import decoders


class Envoy:
    """A site as nnsight's envoy of its module serves it: read and assigned at the output's tensor (a tuple
    output's first element, as every tool does: site_output.py)."""

    def __init__(self, envoy):
        self.envoy = envoy

    def get(self):
        return decoders.first(self.envoy.output)

    def set(self, value):
        self.envoy.output = decoders.replace_first(self.envoy.output, value)


def output(model, site, x):
    """The site's tensor saved from one trace on `x`."""

    def run():
        with model.trace(x):
            kept = site.get().save()
        return kept

    return run


def output_and_logits(model, site, logits, x):
    """(site tensor, logits) saved from one trace on `x`."""

    def run():
        with model.trace(x):
            kept = site.get().save()
            out = logits(model).save()
        return kept, out

    return run


def outputs(model, site, batches):
    """The site's tensor saved from one trace per batch, in batch order."""

    def run():
        kept = []
        for batch in batches:
            with model.trace(batch):
                kept.append(site.get().save())
        return kept

    return run


def edited(model, site, logits, x, edit):
    """The logits of one trace on `x` with edit(site tensor) assigned to the site."""

    def run():
        with model.trace(x):
            site.set(edit(site.get()))
            out = logits(model).save()
        return out

    return run


def steered(model, logits, x, strengths, steer):
    """Stacked logits, one trace on `x` per strength s, with steer(s) applied inside it."""

    def run():
        kept = []
        for s in strengths:
            with model.trace(x):
                steer(s)
                kept.append(logits(model).save())
        return torch.stack(kept)

    return run


def site_gradient(model, site, logits, x, target):
    """d(logits[:, target].sum()) / d(site tensor), read inside `with loss.backward():`; nnsight serves `.grad` only
    there (nnsight/intervention/backward.py), and `.backward()` also accumulates into the parameters' .grad."""

    def run():
        with model.trace(x):
            activation = site.get()
            loss = logits(model)[:, target].sum()
            with loss.backward():
                gradient = activation.grad.save()
        return gradient

    return run


def block_outputs(model, sites, x):
    """Every site's tensor saved from one trace on `x`, stacked in site order."""

    def run():
        with model.trace(x):
            kept = list().save()
            for site in sites:
                kept.append(site.get())
        return torch.stack(kept)

    return run


def patched(model, site, logits, clean, corrupted, position):
    """docs/patterns/activation-patching.md: two invokes in one trace, the clean one handing its site tensor at
    `position` to the corrupted one through `tracer.barrier(2)`; the logits read in the corrupted invoke. nnsight
    batches both invokes into one forward."""

    def run():
        with model.trace() as tracer:
            barrier = tracer.barrier(2)
            with tracer.invoke(clean):
                kept = site.get()[:, position]
                barrier()
            with tracer.invoke(corrupted):
                barrier()
                site.get()[:, position] = kept
                out = logits(model).save()
        return out

    return run


def generated(model, generate_kwargs, x, step):
    """docs/usage/iter-all-next.md: `model.generate(...)` with step() under `tracer.all()` in one invoke, and
    `tracer.result` read in a second, empty invoke (docs/gotchas/iteration.md's recommended pattern)."""

    def run():
        with model.generate(**generate_kwargs) as tracer:
            with tracer.invoke(x):
                for _ in tracer.all():
                    step()
            with tracer.invoke():
                tokens = tracer.result.save()
        return tokens

    return run


def attribution_patching(model, sites, logits, clean, corrupted, params):
    """nnsight's attribution-patching tutorial: every site's clean tensor saved from one trace, then a trace on the
    corrupted input saving its site tensors and, inside `with metric.backward():`, their `.grad`, read from the
    last site to the first (the order the backward produces them)."""

    def run():
        with torch.no_grad(), model.trace(clean):
            clean_outputs = list().save()
            for site in sites:
                clean_outputs.append(site.get())
        with model.trace(corrupted):
            corrupted_outputs = list().save()
            for site in sites:
                corrupted_outputs.append(site.get())
            metric = decoders.logit_difference(logits(model), params).sum()
            gradients = list().save()
            with metric.backward():
                for activation in reversed(corrupted_outputs):
                    gradients.append(activation.grad)
        return decoders.attribution_patching(clean_outputs, [o.detach() for o in corrupted_outputs], gradients[::-1])

    return run
