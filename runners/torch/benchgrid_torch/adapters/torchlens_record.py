"""torchlens `tl.record(..., save=tl.module(site))`: the sparse event recorder, without building a trace graph."""

import torch
import torchlens as tl


def single_module_output(ctx):
    """The site's output: the one record `save=` keeps."""
    model, x, site = ctx.model, ctx.inputs, tl.module(ctx.site)

    def run():
        recording = tl.record(model, x, save=site)
        return recording[0].ram_payload

    return run


def matched_retained(ctx):
    """(site output, logits): the site's record and the model output (`return_output=True`) of one forward."""
    model, x, site = ctx.model, ctx.inputs, tl.module(ctx.site)

    def run():
        logits, recording = tl.record(model, x, save=site, return_output=True)
        return recording[0].ram_payload, logits

    return run


def replacement_edit(ctx):
    """Logits of a recorded forward whose `intervene=tl.when(...)` spec zero-ablates the site."""
    model, x, site = ctx.model, ctx.inputs, tl.module(ctx.site)
    spec = tl.when(site, tl.zero_ablate())

    def run():
        logits, _recording = tl.record(model, x, save=site, intervene=spec, return_output=True)
        return logits

    return run


def repeated_steering(ctx):
    """Stacked logits, one recorded forward per strength s steering the site by s * direction."""
    model, x, site = ctx.model, ctx.inputs, tl.module(ctx.site)
    specs = [tl.when(site, tl.steer(ctx.direction, magnitude=s)) for s in ctx.strengths]

    def run():
        return torch.stack([tl.record(model, x, save=site, intervene=spec, return_output=True)[0] for spec in specs])

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output) from `Recording.log_backward` with the site's gradient saved."""
    # The seed leaves this cell out by policy ("this comparison uses tl.record without backward capture");
    # the entry point exists and is exact, so the spec decides whether the cell is measured.
    model, x, site, target = ctx.model, ctx.inputs, tl.module(ctx.site), ctx.target

    def run():
        logits, recording = tl.record(model, x, save=site, save_grads=True, return_output=True)
        recording.log_backward(logits[:, target].sum())
        return recording.grad_records[0].ram_payload

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, one recording per batch, concatenated in order."""
    model, batches, site = ctx.model, ctx.batches, tl.module(ctx.site)

    def run():
        return torch.cat([tl.record(model, batch, save=site)[0].ram_payload for batch in batches])

    return run
