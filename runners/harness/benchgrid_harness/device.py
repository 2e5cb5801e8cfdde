"""Resolve the requested device; CUDA is touched only when the request asks for it."""

import torch

from .errors import Unsupported


def resolve_device(name):
    """torch.device for `name`; `unsupported` when CUDA is asked for but this process cannot use it."""
    device = torch.device(name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            built = f"built with CUDA {torch.version.cuda}" if torch.version.cuda else "built without CUDA"
            raise Unsupported(f"CUDA is not available in this process (torch {torch.__version__} {built})")
        torch.cuda.set_device(device)
    return device


def is_cuda(device):
    """True when work on `device` is asynchronous and must be synchronised before reading a clock."""
    return device.type == "cuda"


def synchronize(device):
    """Wait for queued work on `device` (no-op on the CPU)."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
