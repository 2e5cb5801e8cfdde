"""torchlens `tl.extract(model, x, layers)`: saved outputs of named layers from one selective trace."""

import torch
import torchlens as tl


def single_module_output(ctx):
    """The site's output, looked up by its module path."""
    model, x, site = ctx.model, ctx.inputs, ctx.site

    def run():
        return tl.extract(model, x, {"site": site})["site"]

    return run


def matched_retained(ctx):
    """(site output, logits): the site and torchlens's `output` layer from one extraction."""
    model, x, site = ctx.model, ctx.inputs, ctx.site

    def run():
        outputs = tl.extract(model, x, {"site": site, "logits": "output"})
        return outputs["site"], outputs["logits"]

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, one extraction per batch, concatenated in order."""
    model, batches, site = ctx.model, ctx.batches, ctx.site

    def run():
        return torch.cat([tl.extract(model, batch, {"site": site})["site"] for batch in batches])

    return run
