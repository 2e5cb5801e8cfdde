"""Versions and machine facts recorded in every result, collected without importing anything new."""

import os
import platform
import socket
import sys
from importlib import metadata


def _version(module_name, distribution):
    """The running module's __version__ if it is loaded, else the installed distribution's; None if neither."""
    module = sys.modules.get(module_name)
    if module is not None and isinstance(getattr(module, "__version__", None), str):
        return module.__version__
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def versions(library):
    """The result's `versions` object; `library` is a distribution name or None."""
    return {
        "python": platform.python_version(),
        "torch": _version("torch", "torch"),
        "torchvision": _version("torchvision", "torchvision"),
        "numpy": _version("numpy", "numpy"),
        "library": None
        if library is None
        else {"name": library, "version": _version(library.replace("-", "_"), library)},
    }


def environment(device_name):
    """The result's `environment` object; touches CUDA only when the device is cuda and torch is loaded."""
    torch = sys.modules.get("torch")
    is_cuda = bool(device_name) and device_name.startswith("cuda")
    gpu_name = cuda = None
    if torch is not None and is_cuda:
        cuda = torch.version.cuda
        try:
            if torch.cuda.is_available():
                gpu_name = torch.cuda.get_device_name(torch.device(device_name))
        except Exception:  # noqa: BLE001 - a broken driver must not stop the result from being written
            gpu_name = None
    return {
        "hostname": socket.gethostname(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "torch_num_threads": torch.get_num_threads() if torch is not None else None,
        "device": device_name,
        "gpu_name": gpu_name,
        "cuda": cuda,
        "executable": sys.executable,
    }
