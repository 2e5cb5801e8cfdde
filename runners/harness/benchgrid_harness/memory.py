"""Peak memory of a memory-mode process: process peak RSS and, on CUDA, peak allocated bytes."""

import resource
import sys

import torch

from .device import is_cuda


def reset_peaks(device):
    """Start the CUDA peak counter afresh (after the subject is built); RSS peaks cannot be reset."""
    if is_cuda(device):
        torch.cuda.reset_peak_memory_stats(device)


def read_peaks(device):
    """The result's `memory` object; call after the measured calls were synchronised."""
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # ru_maxrss is in kilobytes on Linux and in bytes on macOS.
    peak_rss = maxrss if sys.platform == "darwin" else maxrss * 1024
    cuda_peak = int(torch.cuda.max_memory_allocated(device)) if is_cuda(device) else None
    return {"peak_rss_bytes": int(peak_rss), "cuda_peak_allocated_bytes": cuda_peak}
