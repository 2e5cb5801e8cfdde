"""zennit: a `Composite` of rules registered on the model and the `Gradient` attributor (zennit's own docs,
"Getting started" and "Using Rules, Composites, and Canonizers": `with Gradient(model, composite) as
attributor: output, relevance = attributor(input, attr_output)`)."""

import torch
from zennit.attribution import Gradient, IntegratedGradients
from zennit.composites import LayerMapComposite
from zennit.rules import Epsilon

from benchgrid_torch import attribution


def lrp_epsilon(ctx):
    """Relevance at the input: `Epsilon(epsilon)` on every layer of the contract's rule set, a `LayerMapComposite`
    (zennit's documented way to write a composite of one's own), and an output relevance of the target logit.

    zennit's built-in composites are other rule sets (EpsilonPlusFlat: flat first layer, z+ for convolutions,
    epsilon for dense layers; every built-in composite passes BatchNorm through); the contract is epsilon
    everywhere, so the composite is written out. zennit's attributor starts from `attr_output`, here the
    callable `output * one_hot(target)` (the target logit), as LRP's definition does.
    """
    epsilon = float(ctx.params["epsilon"])
    composite = LayerMapComposite(layer_map=[(attribution.EPSILON_LAYERS, Epsilon(epsilon=epsilon))])
    x, target = ctx.inputs, ctx.target

    def start(output):
        return attribution.output_relevance(output, target)

    def run():
        with Gradient(model=ctx.model, composite=composite) as attributor:
            _output, relevance = attributor(x, start)
        return relevance

    return run


def integrated_gradients(ctx):
    """`IntegratedGradients(model, baseline_fn=torch.zeros_like, n_iter=n)` called with the one-hot of the target
    (zennit's docs, "Attributors"): one forward and backward per step, alphas linspace(1/n, 1, n), no composite."""
    attributor = IntegratedGradients(model=ctx.model, baseline_fn=torch.zeros_like, n_iter=int(ctx.params["steps"]))
    x, target = ctx.inputs, ctx.target

    def one_hot(output):
        selected = torch.zeros_like(output)
        selected[:, target] = 1
        return selected

    def run():
        _output, attributions = attributor(x, one_hot)
        return attributions

    return run
