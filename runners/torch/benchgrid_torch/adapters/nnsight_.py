"""nnsight: `NNsight(model).trace(x)` blocks that read, save and assign module outputs (nnsight 0.8 API).

Inside a trace nnsight 0.8 hands out the module's real output, so a tuple output (attention's `(output,
weights)`) is read and assigned through its first element, as every tool does (site_output.py).
"""

import torch
from nnsight import NNsight

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
