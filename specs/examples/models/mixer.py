"""A small MLP-Mixer (Tolstikhin et al., 2021) for the own-model example: none of benchgrid's builders makes
it. Patches are mixed across tokens and then across channels, each step a residual around a LayerNorm and an
MLP, so a site (`mixer.1.tokens`) is a custom block's own submodule, not a torchvision name."""

import torch
from torch import nn


class MlpBlock(nn.Module):
    """Linear, GELU, Linear: the MLP both mixing steps use."""

    def __init__(self, width, hidden):
        super().__init__()
        self.fc1 = nn.Linear(width, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, width)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class TokenMixing(nn.Module):
    """The MLP across tokens: applied to each channel's sequence of patches (hence the transposes)."""

    def __init__(self, tokens, hidden):
        super().__init__()
        self.mlp = MlpBlock(tokens, hidden)

    def forward(self, x):
        return self.mlp(x.transpose(1, 2)).transpose(1, 2)


class MixerLayer(nn.Module):
    """x + TokenMixing(LN(x)), then x + ChannelMixing(LN(x)): two residuals per layer."""

    def __init__(self, tokens, channels, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(channels)
        self.tokens = TokenMixing(tokens, token_hidden)
        self.norm2 = nn.LayerNorm(channels)
        self.channels = MlpBlock(channels, channel_hidden)

    def forward(self, x):
        x = x + self.tokens(self.norm1(x))
        return x + self.channels(self.norm2(x))


class Mixer(nn.Module):
    """Patch embedding (a strided convolution), `depth` mixer layers, a mean over tokens, a linear head."""

    def __init__(self, image_size, patch, channels, depth, classes):
        super().__init__()
        tokens = (image_size // patch) ** 2
        self.stem = nn.Conv2d(3, channels, kernel_size=patch, stride=patch)
        self.mixer = nn.Sequential(*[MixerLayer(tokens, channels, channels // 2, channels * 4) for _ in range(depth)])
        self.norm = nn.LayerNorm(channels)
        self.head = nn.Linear(channels, classes)

    def forward(self, images):
        x = self.stem(images).flatten(2).transpose(1, 2)  # (batch, tokens, channels)
        x = self.norm(self.mixer(x))
        return self.head(x.mean(dim=1))


def build(image_size=32, patch=4, channels=64, depth=4, classes=10):
    """The builder a spec names as `models/mixer.py:build`: its `config` arrives as these keyword arguments.
    Its parameters come from torch's global generator, which the harness seeds with model.seed first."""
    return Mixer(image_size, patch, channels, depth, classes)


def build_with_inputs(image_size=32, patch=4, channels=64, depth=4, classes=10, batch=2, stimuli=8):
    """The same model with inputs it makes itself (inputs: { kind: builder }): a batch, and the dataset contract's
    batches, here images on the model's input size."""
    model = build(image_size, patch, channels, depth, classes)
    dataset = torch.randn(stimuli, 3, image_size, image_size)
    return model, {"batch": dataset[:batch].clone(), "dataset": list(torch.split(dataset, batch))}
