"""The python builder: a model of the user's own, built by a function in a file or an installed module, and the
inputs it may return beside the module (subjects.py builds every other kind)."""

import hashlib
import importlib
import importlib.util
import os
import sys

import torch

from . import weights as weights_
from .errors import HarnessError


def with_state_dict(model, model_spec):
    """`model` with the state_dict file its `weights` name loaded over it (unchanged without weights)."""
    weights = model_spec.get("weights")
    if weights is None:
        return model
    if weights["kind"] != "state_dict":
        raise HarnessError(
            f"a {model_spec['builder']} model takes a state_dict file as weights, not {weights['kind']} weights"
        )
    return weights_.load_state_dict(model, weights["path"])


_USER_MODULES = {}


def _user_function(source):
    """The python builder's function: from a file (imported once per process under a name of its own, its
    directory on sys.path so that it may import its neighbours) or from an installed module."""
    if source.get("file"):
        path = os.path.abspath(source["file"])
        if not os.path.isfile(path):
            raise HarnessError(f"model file {source['file']} does not exist")
        if path not in _USER_MODULES:
            name = "benchgrid_user_model_" + hashlib.sha256(path.encode("utf-8")).hexdigest()[:12]
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            folder = os.path.dirname(path)
            if folder not in sys.path:
                sys.path.insert(0, folder)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            _USER_MODULES[path] = module
        module, where = _USER_MODULES[path], source["file"]
    else:
        try:
            module = importlib.import_module(source["module"])
        except ImportError as exc:
            raise HarnessError(f"cannot import {source['module']} for the python builder: {exc}") from exc
        where = source["module"]
    function = getattr(module, source["function"], None)
    if not callable(function):
        raise HarnessError(f"{where} has no function {source['function']}")
    return function


def python_model(model_spec, _device):
    """Your own function, called with `config` as keyword arguments: an nn.Module, or (module, inputs)."""
    source = model_spec.get("source")
    if source is None:
        raise HarnessError(f"python builder: {model_spec['name']!r} is not FILE.py:FUNCTION or package.module:FUNCTION")
    built = _user_function(source)(**model_spec["config"])
    inputs = None
    if isinstance(built, tuple):
        if len(built) != 2:
            raise HarnessError(
                f"{model_spec['name']} returned a tuple of {len(built)}; return a module, or (module, inputs)"
            )
        built, inputs = built
    if not isinstance(built, torch.nn.Module):
        raise HarnessError(f"{model_spec['name']} returned {type(built).__name__}, not a torch.nn.Module")
    return with_state_dict(built, model_spec), inputs


def builder_inputs(returned, name):
    """(batch, dataset batches) from what a python builder returned beside its module: a tensor (the batch,
    and the dataset is that one batch), or {"batch": tensor, "dataset": [tensors]}."""
    if isinstance(returned, torch.Tensor):
        return returned, [returned]
    if isinstance(returned, dict) and isinstance(returned.get("batch"), torch.Tensor):
        dataset = returned.get("dataset", [returned["batch"]])
        if (
            not isinstance(dataset, (list, tuple))
            or not dataset
            or not all(isinstance(b, torch.Tensor) for b in dataset)
        ):
            raise HarnessError(f"{name}: inputs['dataset'] must be a non-empty list of tensors")
        return returned["batch"], list(dataset)
    raise HarnessError(
        f"{name} returned inputs of type {type(returned).__name__}; return a tensor or {{'batch': tensor, 'dataset': [tensors]}}"
    )
