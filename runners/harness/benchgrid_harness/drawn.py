"""Seeded tensors that a contract's parameters ask for, drawn once by the harness so every tool gets the same ones.

Each is drawn on the CPU from its own `torch.Generator` (so the values are the same whatever the device),
then moved to the device and cast to the site's dtype. The order of the draws is part of the definition
(docs/contracts.md): changing it changes every result.
"""

import math

import torch


def _generator(seed):
    return torch.Generator().manual_seed(int(seed))


def direction(seed, shape, dtype, device):
    """`randn(shape)`: repeated_steering's direction, shaped like the site output."""
    return torch.randn(shape, generator=_generator(seed), dtype=torch.float32).to(device=device, dtype=dtype)


def vector(seed, width, dtype, device):
    """`randn(width)`: steered_generation's steering vector, one value per feature of the site output."""
    return torch.randn(width, generator=_generator(seed), dtype=torch.float32).to(device=device, dtype=dtype)


def corrupted(seed, inputs, input_spec, pad=None, vocab=None):
    """activation_patching's corrupted input: like the clean one, drawn from its own seed (token ids from
    [0, vocab), or normal values for images). Padded text keeps the clean run's padding: ids from [0, vocab)
    without the pad id where the clean prompt has tokens, the pad id where it has none."""
    generator = _generator(seed)
    if input_spec["kind"] == "text":
        values = torch.randint(0, vocab - 1, tuple(inputs.shape), generator=generator, dtype=torch.int64)
        values[values >= pad] += 1
        values = torch.where(inputs.cpu() == pad, torch.full_like(values, pad), values)
    elif input_spec["kind"] == "tokens":
        values = torch.randint(0, input_spec["vocab"], tuple(inputs.shape), generator=generator, dtype=torch.int64)
    else:
        values = torch.randn(tuple(inputs.shape), generator=generator, dtype=torch.float32).to(inputs.dtype)
    return values.to(inputs.device)


def sae_weights(seed, d_in, d_sae, dtype, device):
    """A sparse autoencoder's parameters with sae-lens's names and shapes, drawn in this order:
    W_enc = randn(d_in, d_sae) / sqrt(d_in), b_enc = 0.1 randn(d_sae), W_dec = randn(d_sae, d_in) / sqrt(d_sae),
    b_dec = 0.1 randn(d_in)."""
    generator = _generator(seed)
    draw = lambda *shape: torch.randn(*shape, generator=generator, dtype=torch.float32)  # noqa: E731
    weights = {
        "W_enc": draw(d_in, d_sae) / math.sqrt(d_in),
        "b_enc": 0.1 * draw(d_sae),
        "W_dec": draw(d_sae, d_in) / math.sqrt(d_sae),
        "b_dec": 0.1 * draw(d_in),
    }
    return {name: value.to(device=device, dtype=dtype) for name, value in weights.items()}
