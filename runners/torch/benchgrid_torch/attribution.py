"""What the attribution contracts define beyond a tool's own call (docs/contracts.md, "Attribution contracts").

Written once so that every adapter finishes a result the same way: how a layer's output is laid out as a
channel grid, how a Grad-CAM map is brought to the input's size and normalised, and which layers the
LRP-epsilon rule applies to.
"""

import math

import torch
import torch.nn.functional as F

# The layers that carry the epsilon rule in `lrp_epsilon`: Captum's default rule set (captum/attr/_core/lrp.py,
# SUPPORTED_LAYERS_WITH_RULES), the "epsilon everywhere" of LRP on a CNN. Everything else passes the backward
# as the gradient does (ReLU, the residual additions, flatten).
EPSILON_LAYERS = (
    torch.nn.Conv2d,
    torch.nn.Linear,
    torch.nn.BatchNorm2d,
    torch.nn.MaxPool2d,
    torch.nn.AdaptiveAvgPool2d,
)

# Added to the map's range before dividing, as pytorch-grad-cam's scale_cam_image does.
NORMALISE_EPSILON = 1e-7


def token_side(tokens):
    """h (= w) of a ViT's [B, 1 + h*w, C] token output, or None when the tokens do not form a square grid."""
    side = math.isqrt(max(tokens - 1, 0))
    return side if side > 0 and side * side == tokens - 1 else None


def channel_grid(tensor):
    """A [B, C, h, w] layer output as it is; a ViT's [B, 1 + h*w, C] tokens as [B, C, h, w], the class token dropped.

    The token layout is pytorch-grad-cam's `reshape_transform` for vision transformers
    (tutorials/vision_transformers.md): tokens 1.. in row-major order on the h x w patch grid.
    """
    if tensor.dim() == 4:
        return tensor
    side = token_side(tensor.shape[1]) if tensor.dim() == 3 else None
    if side is None:
        raise ValueError(
            f"a layer output of shape {list(tensor.shape)} is neither [B, C, h, w] nor a ViT's [B, 1 + h*w, C] tokens"
        )
    return tensor[:, 1:, :].reshape(tensor.shape[0], side, side, tensor.shape[2]).permute(0, 3, 1, 2)


def normalise(maps):
    """[B, H, W] maps scaled per image to (m - min) / (max - min + 1e-7)."""
    maps = maps - maps.amin(dim=(1, 2), keepdim=True)
    return maps / (maps.amax(dim=(1, 2), keepdim=True) + NORMALISE_EPSILON)


def upsample_and_normalise(cam, size):
    """[B, 1, h, w] maps -> [B, H, W]: bilinear (half-pixel centres, as OpenCV's INTER_LINEAR), then `normalise`."""
    return normalise(F.interpolate(cam, size=tuple(size), mode="bilinear", align_corners=False)[:, 0])


def grad_cam_map(activation, gradient, size):
    """The contract's map from the layer's output and d(logits[:, target].sum())/d(output), both as laid out by the
    layer: channel weights = spatial mean of the gradient, ReLU of the weighted sum of channels, then
    `upsample_and_normalise`."""
    activation, gradient = channel_grid(activation), channel_grid(gradient)
    weights = gradient.mean(dim=(2, 3), keepdim=True)
    cam = F.relu((weights * activation).sum(dim=1, keepdim=True))
    return upsample_and_normalise(cam, size)


def stabilised(z, epsilon):
    """z + epsilon * sign(z), with sign(0) = +1 (zennit's and Captum's epsilon stabiliser)."""
    return z + epsilon * torch.where(z >= 0, 1.0, -1.0).to(z.dtype)


def output_relevance(logits, target):
    """The relevance the backward starts from: the target logit at the target, zero elsewhere."""
    relevance = torch.zeros_like(logits)
    relevance[:, target] = logits[:, target].detach()
    return relevance
