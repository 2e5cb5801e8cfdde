"""Real weights for a subject: a state_dict file, a save_pretrained directory, or a hub id from the local
Hugging Face cache (cell processes run with HF_HUB_OFFLINE=1: nothing is ever downloaded here), and the
sha256 digest of exactly the bytes that were loaded, which the result records."""

import hashlib
import os

import torch

from .errors import HarnessError

_DIGESTS = {}


def _files_of(root):
    """Every regular file under `root` (a file is itself), by path relative to it, sorted: what a digest covers."""
    if os.path.isfile(root):
        return [("", root)]
    found = []
    for top, dirs, names in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in names:
            if not name.startswith("."):
                full = os.path.join(top, name)
                found.append((os.path.relpath(full, root).replace(os.sep, "/"), full))
    return sorted(found)


def digest(root):
    """sha256 over the names and contents of the files under `root` (once per process: the twin reuses it)."""
    key = os.path.realpath(root)
    if key not in _DIGESTS:
        h = hashlib.sha256()
        for rel, full in _files_of(root):
            h.update(rel.encode("utf-8") + b"\0")
            with open(full, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    h.update(block)
            h.update(b"\0")
        _DIGESTS[key] = "sha256:" + h.hexdigest()
    return _DIGESTS[key]


def read_state_dict(path):
    """A state_dict file as tensors on the CPU: safetensors by its extension, else torch.load with
    weights_only=True (a pickle that holds anything but tensors and plain containers is refused)."""
    if not os.path.isfile(path):
        raise HarnessError(f"weights file {path} does not exist")
    if path.lower().endswith(".safetensors"):
        from safetensors.torch import load_file

        return load_file(path, device="cpu")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # any unpickling failure is the file's
        raise HarnessError(f"weights file {path} is not a state_dict torch.load can read safely: {exc}") from exc
    # A whole checkpoint often keeps the weights under "state_dict" or "model".
    for key in ("state_dict", "model"):
        if (
            isinstance(state, dict)
            and isinstance(state.get(key), dict)
            and not any(isinstance(v, torch.Tensor) for v in state.values())
        ):
            state = state[key]
    if not isinstance(state, dict) or not all(isinstance(v, torch.Tensor) for v in state.values()):
        raise HarnessError(f"weights file {path} holds no state_dict (a mapping of names to tensors)")
    return state


def load_state_dict(model, path):
    """Loads the file into `model`, strictly: every parameter and buffer named, nothing left over."""
    state = read_state_dict(path)
    result = model.load_state_dict(state, strict=False)
    missing, unexpected = list(result.missing_keys), list(result.unexpected_keys)
    if missing or unexpected:

        def few(keys):
            return ", ".join(keys[:3]) + (f" and {len(keys) - 3} more" if len(keys) > 3 else "")

        parts = ([f"missing {few(missing)}"] if missing else []) + (
            [f"unexpected {few(unexpected)}"] if unexpected else []
        )
        raise HarnessError(f"weights file {path} does not fit the model: {'; '.join(parts)}")
    return model


def hub_snapshot(hub_id):
    """The local cache's snapshot directory of `hub_id`; never downloads (local_files_only)."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError as exc:
        raise HarnessError("weights: hf:... needs huggingface_hub in the environment") from exc
    try:
        return snapshot_download(hub_id, local_files_only=True)
    except Exception as exc:  # not cached, or a broken cache: the same advice
        raise HarnessError(
            f"weights hf:{hub_id} are not in the local Hugging Face cache ({type(exc).__name__}); "
            f"download them first: benchgrid run SPEC --allow-downloads"
        ) from exc


def describe(weights):
    """The result's record of the weights: where from and their digest; None for random weights."""
    if weights is None:
        return None
    if weights["kind"] == "hub":
        root = hub_snapshot(weights["id"])
        return {"kind": "hub", "source": f"hf:{weights['id']}", "sha256": digest(root)}
    return {"kind": weights["kind"], "source": weights["path"], "sha256": digest(weights["path"])}
