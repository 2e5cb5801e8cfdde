"""torchvision's FX `create_feature_extractor`: a traced copy of the model that returns the named nodes.

`return_nodes` takes torchvision's node names, which are not always module paths: it names a call of a
module by its path but reads a trailing `_N` as its own counter of repeated names, so in ViT's encoder
block the node `...encoder_layer_5.ln_1` is the call of module `ln_2` and module `ln_1` is the node
`...encoder_layer_5.ln` (torchvision 0.29.1). The adapter therefore maps the site's module path to the
name of the node that calls it (`_node_of`), as a user reading `get_graph_node_names` would have to.
"""

import torch
from torchvision.models.feature_extraction import NodePathTracer, create_feature_extractor, get_graph_node_names

from benchgrid_torch.site_output import first


def _output_node(model):
    """The name of the graph's last node (the logits, e.g. `fc` for ResNets) in eval mode."""
    _train_nodes, eval_nodes = get_graph_node_names(model)
    return eval_nodes[-1]


def _node_of(model, path):
    """The feature-extraction node name of module `path`: the node calling it where it is a leaf of the traced
    graph (torchvision's tracer, eval mode), else the path itself."""
    tracer = NodePathTracer()
    graph = tracer.trace(model.eval())
    names = [
        tracer.node_to_qualname[node]
        for node in graph.nodes
        if node.op == "call_module" and node.target == path and node in tracer.node_to_qualname
    ]
    if not names:  # not a leaf: torchvision traces through it and names its output by its path (`layer2`)
        return path
    if len(names) > 1:
        raise ValueError(
            f"module {path!r} is called {len(names)} times in torchvision's traced graph; "
            "a feature extractor names one node"
        )
    return names[0]


def _site_and_logits(ctx):
    """An extractor returning both the site's output and the logits from one traced forward.

    Returning the logits node too is what keeps the whole network in the graph: an extractor asked for the
    site alone is pruned after it (that is `site_output_stopped`).
    """
    return create_feature_extractor(
        ctx.model, return_nodes={_node_of(ctx.model, ctx.site): "site", _output_node(ctx.model): "logits"}
    )


def single_module_output(ctx):
    """The site's output from a whole traced forward (the logits are computed and dropped)."""
    extractor = _site_and_logits(ctx)
    x = ctx.inputs

    def run():
        return first(extractor(x)["site"])

    return run


def site_output_stopped(ctx):
    """The site's output; the extracted graph ends at the site, so the rest of the network is skipped."""
    extractor = create_feature_extractor(ctx.model, return_nodes={_node_of(ctx.model, ctx.site): "site"})
    x = ctx.inputs

    def run():
        return first(extractor(x)["site"])

    return run


def matched_retained(ctx):
    """(site output, logits) from one traced forward."""
    extractor = _site_and_logits(ctx)
    x = ctx.inputs

    def run():
        out = extractor(x)
        return first(out["site"]), out["logits"]

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output): a tensor hook on the extracted site, then a full backward."""
    extractor = _site_and_logits(ctx)
    x, target = ctx.inputs, ctx.target

    def run():
        kept = []
        out = extractor(x)
        first(out["site"]).register_hook(kept.append)
        out["logits"][:, target].sum().backward()
        return kept[0]

    return run


def site_gradient_only(ctx):
    """d(logits[:, target].sum()) / d(site output) through torch.autograd.grad: no parameter gradients."""
    extractor = _site_and_logits(ctx)
    x, target = ctx.inputs, ctx.target

    def run():
        out = extractor(x)
        (gradient,) = torch.autograd.grad(out["logits"][:, target].sum(), first(out["site"]))
        return gradient

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, each from a whole traced forward, concatenated in order."""
    extractor = _site_and_logits(ctx)
    batches = ctx.batches

    def run():
        return torch.cat([first(extractor(batch)["site"]) for batch in batches])

    return run
