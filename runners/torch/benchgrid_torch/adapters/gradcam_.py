"""pytorch-grad-cam (`grad-cam` on PyPI): `GradCAM(model, target_layers)` called with `ClassifierOutputTarget`s.

The idiom is the package's README ("Usage examples": construct the CAM object once and re-use it; one
`ClassifierOutputTarget` per image of the batch) and, for vision transformers, its `vit_reshape_transform`
(pytorch_grad_cam/utils/reshape_transforms.py; README, "The reshape_transform argument").
"""

import functools

import torch
from pytorch_grad_cam import GradCAM
from pytorch_grad_cam.utils.model_targets import ClassifierOutputTarget
from pytorch_grad_cam.utils.reshape_transforms import vit_reshape_transform

from benchgrid_harness.context import probe_site

from benchgrid_torch import attribution


def grad_cam(ctx):
    """The CAM object's map for every image of the batch, as a tensor (pytorch-grad-cam returns NumPy float32).

    Same map as the contract's, computed its own way (pytorch_grad_cam/base_cam.py): the weights are NumPy
    means of the gradient, the map is min-max scaled before OpenCV resizes it and scaled again after, hence
    the contract's tolerance. Different work, kept as is: `loss.backward(retain_graph=True)` fills every
    parameter's .grad (the contract needs the gradient at the layer only), and activations and gradients
    are copied to NumPy on the way.
    """
    shape, _dtype = probe_site(ctx.model, ctx.inputs, ctx.site_module, ctx.site)
    reshape = None
    if len(shape) == 3:
        side = attribution.token_side(shape[1])
        reshape = functools.partial(vit_reshape_transform, height=side, width=side)
    cam = GradCAM(model=ctx.model, target_layers=[ctx.site_module], reshape_transform=reshape)
    x = ctx.inputs
    targets = [ClassifierOutputTarget(ctx.target) for _ in range(x.shape[0])]

    def run():
        return torch.from_numpy(cam(input_tensor=x, targets=targets))

    return run
