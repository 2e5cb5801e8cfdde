"""The subject's part of a request (request.py): the model's optional fields and the inputs, whether the
harness generates them (their shape and sizes, bounded before torch allocates anything) or reads text prompts."""

import json
import math
import os
import re

from .protocol import is_int as _is_int

FLOAT_DTYPES = ("float32", "float64", "float16", "bfloat16")

# Inputs are generated in full before the first call (subjects.py): one batch of `shape` and a dataset of
# `stimuli` samples of shape[1:]. 2**31 elements is 8 GiB of float32 per tensor, far past any subject
# benchgrid measures (ResNet-18's batch is 150,528 elements, GPT-2's 16 tokens), and short of what would
# take a node down before the process could say why.
_MAX_DIMS = 8
_MAX_ELEMENTS = 2**31
_MAX_STIMULI = 1_000_000


def count(low, high):
    """The test of an integer setting within [low, high]."""
    return lambda v: _is_int(v) and low <= v <= high


# Inputs the harness generates (not those a python builder returns): their shape and the dataset's size.
_GENERATED_RULES = [
    (
        "shape",
        lambda v: isinstance(v, list) and 0 < len(v) <= _MAX_DIMS and all(count(1, _MAX_ELEMENTS)(d) for d in v),
        f"a list of 1 to {_MAX_DIMS} positive integers",
    ),
    ("stimuli", count(1, _MAX_STIMULI), f"an integer from 1 to {_MAX_STIMULI}"),
    ("batch_size", count(1, _MAX_STIMULI), f"an integer from 1 to {_MAX_STIMULI}"),
]

_PYTHON_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MODULE_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
# A submodule of a model, as named_modules() spells it: Sequential children are numbers (features.0).
_SUBMODULE = re.compile(r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$")
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")


_MAX_PROMPTS, _MAX_PROMPT_CHARS = 4096, 100_000


def text_problems(inputs):
    """Text inputs: the prompts themselves (strings), a tokenizer the harness can load, the padding side."""
    problems = []
    prompts = inputs.get("prompts")
    if not (
        isinstance(prompts, list)
        and 0 < len(prompts) <= _MAX_PROMPTS
        and all(isinstance(p, str) and 0 < len(p) <= _MAX_PROMPT_CHARS for p in prompts)
    ):
        problems.append(
            f"subject.inputs.prompts: expected 1 to {_MAX_PROMPTS} non-empty strings of at most "
            f"{_MAX_PROMPT_CHARS:,} characters"
        )
    tokenizer = inputs.get("tokenizer")
    kind = tokenizer.get("kind") if isinstance(tokenizer, dict) else None
    if kind == "pretrained":
        if not (isinstance(tokenizer.get("path"), str) and os.path.isabs(tokenizer["path"])):
            problems.append("subject.inputs.tokenizer.path: expected an absolute path (the spec's loader resolves it)")
    elif kind == "hub":
        if not (isinstance(tokenizer.get("id"), str) and _HUB_ID.match(tokenizer["id"])):
            problems.append("subject.inputs.tokenizer.id: expected a hub id ORG/NAME")
    elif kind not in ("bytes", "model"):
        problems.append(
            'subject.inputs.tokenizer: expected {kind: "bytes"}, {kind: "model"}, '
            '{kind: "pretrained", path} or {kind: "hub", id}'
        )
    if inputs.get("padding_side") not in ("left", "right"):
        problems.append('subject.inputs.padding_side: expected "left" or "right"')
    if not count(1, _MAX_STIMULI)(inputs.get("batch_size")):
        problems.append(f"subject.inputs.batch_size: expected an integer from 1 to {_MAX_STIMULI}")
    return problems


def generated_problems(inputs):
    problems = []
    for key, test, expected in _GENERATED_RULES:
        if key not in inputs:
            problems.append(f"subject.inputs.{key}: missing (expected {expected})")
        elif not test(inputs[key]):
            problems.append(f"subject.inputs.{key}: expected {expected} (got {json.dumps(inputs[key])[:80]})")
    return problems


def model_problems(model):
    """The model's optional fields: dtype, the python builder's source, weights and config_from."""
    problems = []
    if model.get("dtype") is not None and model["dtype"] not in FLOAT_DTYPES:
        problems.append(
            f"subject.model.dtype: expected one of {', '.join(FLOAT_DTYPES)} (got {json.dumps(model['dtype'])[:80]})"
        )
    source = model.get("source")
    if model["builder"] == "python":
        if not isinstance(source, dict):
            problems.append("subject.model.source: the python builder needs {file, module, function}")
        else:
            file, module, function = source.get("file"), source.get("module"), source.get("function")
            one = (isinstance(file, str) and file and module is None) or (
                file is None and isinstance(module, str) and _MODULE_PATH.match(module)
            )
            if not one:
                problems.append("subject.model.source: expected a file (a path) or a module (dotted names), not both")
            if not (isinstance(function, str) and _PYTHON_NAME.match(function)):
                problems.append(
                    f"subject.model.source.function: expected a Python name (got {json.dumps(function)[:80]})"
                )
    elif source is not None:
        problems.append(f"subject.model.source: only the python builder has one (the builder is {model['builder']})")
    weights = model.get("weights")
    if weights is not None:
        kind = weights.get("kind") if isinstance(weights, dict) else None
        if kind in ("state_dict", "pretrained"):
            if not (isinstance(weights.get("path"), str) and weights["path"]):
                problems.append("subject.model.weights.path: expected a path")
        elif kind == "hub":
            if not (isinstance(weights.get("id"), str) and _HUB_ID.match(weights["id"])):
                problems.append(
                    f"subject.model.weights.id: expected a hub id ORG/NAME (got {json.dumps(weights.get('id'))[:80]})"
                )
        else:
            problems.append(
                f"subject.model.weights: expected null or kind state_dict, pretrained or hub (got {json.dumps(weights)[:80]})"
            )
    config_from = model.get("config_from")
    if config_from is not None and not (isinstance(config_from, str) and config_from):
        problems.append("subject.model.config_from: expected null or a directory")
    reinit = model.get("reinit", [])
    if not (isinstance(reinit, list) and all(isinstance(p, str) and _SUBMODULE.match(p) for p in reinit)):
        problems.append(f"subject.model.reinit: expected a list of module paths (got {json.dumps(reinit)[:80]})")
    elif reinit and weights is not None:
        problems.append(
            "subject.model.reinit: re-initialising modules would overwrite the real weights; name reinit only for random weights"
        )
    return problems


def size_problems(inputs):
    """The input batch and the dataset, each at most _MAX_ELEMENTS elements (checked before torch allocates them)."""
    shape = inputs["shape"]
    batch = math.prod(shape)
    dataset = inputs["stimuli"] * math.prod(shape[1:])
    problems = []
    if batch > _MAX_ELEMENTS:
        problems.append(
            f"subject.inputs.shape: {shape} is {batch:,} elements; at most {_MAX_ELEMENTS:,} (2**31) are generated"
        )
    if dataset > _MAX_ELEMENTS:
        problems.append(
            f"subject.inputs.stimuli: {inputs['stimuli']:,} stimuli of shape {shape[1:]} are {dataset:,} elements; "
            f"at most {_MAX_ELEMENTS:,} (2**31) are generated"
        )
    return problems
