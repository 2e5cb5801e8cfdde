"""torchvision's FX `create_feature_extractor`: a traced copy of the model that returns the named nodes."""

import torch
from torchvision.models.feature_extraction import create_feature_extractor, get_graph_node_names

LIBRARY = "torchvision"


def _output_node(model):
    """The name of the graph's last node (the logits, e.g. `fc` for ResNets) in eval mode."""
    _train_nodes, eval_nodes = get_graph_node_names(model)
    return eval_nodes[-1]


def single_module_output(ctx):
    """The site's output; the extracted graph stops at the site, so the rest of the network is skipped."""
    extractor = create_feature_extractor(ctx.model, return_nodes={ctx.site: "site"})
    x = ctx.inputs

    def run():
        return extractor(x)["site"]

    return run


def _site_and_logits(ctx):
    """An extractor returning both the site's output and the logits from one traced forward."""
    return create_feature_extractor(ctx.model, return_nodes={ctx.site: "site", _output_node(ctx.model): "logits"})


def matched_retained(ctx):
    """(site output, logits) from one traced forward."""
    extractor = _site_and_logits(ctx)
    x = ctx.inputs

    def run():
        out = extractor(x)
        return out["site"], out["logits"]

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output), with both read from the extractor's outputs."""
    extractor = _site_and_logits(ctx)
    x, target = ctx.inputs, ctx.target

    def run():
        out = extractor(x)
        (gradient,) = torch.autograd.grad(out["logits"][:, target].sum(), out["site"])
        return gradient

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, concatenated in order."""
    extractor = create_feature_extractor(ctx.model, return_nodes={ctx.site: "site"})
    batches = ctx.batches

    def run():
        return torch.cat([extractor(batch)["site"] for batch in batches])

    return run
