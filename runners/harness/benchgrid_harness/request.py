"""Load a request file and check the parts the harness relies on (schemas/request.schema.json is the full contract)."""

import json
import math
import os
import re

from . import WIRE_VERSION
from .errors import RequestError
from .protocol import is_int as _is_int
from .protocol import is_number as _is_number
from .protocol import maximum, settings_problems

_DEVICE = re.compile(r"^(cpu|cuda(:[0-9]+)?)$")
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")
_FLOAT_DTYPES = ("float32", "float64", "float16", "bfloat16")
# Upper bounds of what the harness allocates or loops over, as the spec's schema bounds them (a request
# file is hostile until checked: samples of 10**12 would preallocate terabytes before the first call);
# the settings' own come from the protocol table (protocol.py).
_MAX_CALLS = maximum("samples")
_MAX_SEED = 2**64 - 1  # torch.manual_seed's range
# Inputs are generated in full before the first call (subjects.py): one batch of `shape` and a dataset of
# `stimuli` samples of shape[1:]. 2**31 elements is 8 GiB of float32 per tensor, far past any subject
# benchgrid measures (ResNet-18's batch is 150,528 elements, GPT-2's 16 tokens), and short of what would
# take a node down before the process could say why.
_MAX_DIMS = 8
_MAX_ELEMENTS = 2**31
_MAX_STIMULI = 1_000_000


def _count(low, high):
    """The test of an integer setting within [low, high]."""
    return lambda v: _is_int(v) and low <= v <= high


def _get(data, path):
    """Follow a dotted path through nested dicts; a missing step yields KeyError."""
    for key in path.split("."):
        if not isinstance(data, dict) or key not in data:
            raise KeyError(path)
        data = data[key]
    return data


# (dotted path, test, what was expected): one row per field the harness reads.
_RULES = [
    ("protocol", lambda v: _is_int(v) and v == WIRE_VERSION, f"{WIRE_VERSION}"),
    ("cell.id", lambda v: isinstance(v, str) and v, "a non-empty string"),
    ("contract.kind", lambda v: isinstance(v, str) and _IDENTIFIER.match(v), "a lower_snake_case name"),
    ("contract.params", lambda v: isinstance(v, dict), "an object"),
    ("contract.grad", lambda v: isinstance(v, bool), "true or false (runners/harness/contracts.json)"),
    (
        "contract.work",
        lambda v: v is None or (isinstance(v, dict) and "forwards" in v and "parameter_grads" in v),
        "null or {forwards, parameter_grads} (runners/harness/contracts.json)",
    ),
    ("subject.id", lambda v: isinstance(v, str) and v, "a non-empty string"),
    (
        "subject.model.builder",
        lambda v: v in ("torchvision", "gpt2", "transformers", "python"),
        '"torchvision", "gpt2", "transformers" or "python"',
    ),
    ("subject.model.name", lambda v: isinstance(v, str) and v, "a non-empty string"),
    ("subject.model.seed", _count(0, _MAX_SEED), "an integer from 0 to 2**64 - 1"),
    ("subject.model.config", lambda v: isinstance(v, dict), "an object"),
    (
        "subject.inputs.kind",
        lambda v: v in ("image", "tokens", "builder", "text"),
        '"image", "tokens", "builder" or "text"',
    ),
    ("subject.inputs.seed", _count(0, _MAX_SEED), "an integer from 0 to 2**64 - 1"),
    ("subject.sites", lambda v: isinstance(v, dict), "an object"),
    ("tool.id", lambda v: isinstance(v, str) and v, "a non-empty string"),
    ("tool.module", lambda v: isinstance(v, str) and v, "a module path"),
    ("tool.library", lambda v: v is None or (isinstance(v, str) and v), "a distribution name or null"),
    (
        "reference",
        lambda v: (
            v is None or (isinstance(v, dict) and isinstance(v.get("module"), str) and isinstance(v.get("tool"), str))
        ),
        "null or {tool, module}",
    ),
    ("device", lambda v: isinstance(v, str) and _DEVICE.match(v), '"cpu", "cuda" or "cuda:N"'),
    ("mode", lambda v: v in ("time", "memory"), '"time" or "memory"'),
    ("process_index", lambda v: _is_int(v) and v >= 0, "a non-negative integer"),
]


def _problems(request):
    """Every rule the request breaks, as 'path: expected X (got Y)' lines."""
    problems = []
    for path, test, expected in _RULES:
        try:
            value = _get(request, path)
        except KeyError:
            problems.append(f"{path}: missing (expected {expected})")
            continue
        if not test(value):
            problems.append(f"{path}: expected {expected} (got {json.dumps(value)[:80]})")
    # The timing settings, as the protocol table declares them (protocol.py).
    settings = request.get("settings")
    problems.extend(settings_problems(settings if isinstance(settings, dict) else {}))
    if problems:
        return problems
    problems.extend(_model_problems(request["subject"]["model"]))
    inputs = request["subject"]["inputs"]
    if inputs["kind"] == "text":
        problems.extend(_text_problems(inputs))
    elif inputs["kind"] != "builder":
        problems.extend(_generated_problems(inputs))
    if problems:
        return problems
    if inputs["kind"] == "image" and inputs.get("dtype") not in _FLOAT_DTYPES:
        problems.append(
            f"subject.inputs.dtype: expected one of {', '.join(_FLOAT_DTYPES)} for images (got {inputs.get('dtype')!r})"
        )
    if inputs["kind"] == "tokens" and not (_is_int(inputs.get("vocab")) and inputs["vocab"] > 0):
        problems.append(f"subject.inputs.vocab: expected a positive integer for tokens (got {inputs.get('vocab')!r})")
    if inputs["kind"] not in ("builder", "text"):
        problems.extend(_size_problems(inputs))
    settings = request["settings"]
    tolerance = settings.get("float32_tolerance")
    if tolerance is not None and not (
        isinstance(tolerance, dict)
        and all(_is_number(tolerance.get(k)) and tolerance[k] >= 0 for k in ("rtol", "atol"))
    ):
        problems.append(
            f"settings.float32_tolerance: expected absent or {{rtol, atol}}, non-negative numbers "
            f"(got {json.dumps(tolerance)[:80]})"
        )
    if settings["min_samples"] > settings["samples"]:
        problems.append(
            f"settings.min_samples: must not exceed settings.samples "
            f"(got {settings['min_samples']} > {settings['samples']})"
        )
    problems.extend(_pairing_problems(request))
    # cell.contract is the spec's contract id, which may differ from the kind it implements;
    # what must hold is that the cell's id is made of its parts.
    cell = request.get("cell", {})
    parts = [cell.get(k) for k in ("group", "contract", "tool", "subject")]
    if all(isinstance(p, str) for p in parts) and cell.get("id") != "/".join(parts):
        problems.append(f"cell.id: must be group/contract/tool/subject (got {cell.get('id')!r})")
    return problems


# Inputs the harness generates (not those a python builder returns): their shape and the dataset's size.
_GENERATED_RULES = [
    (
        "shape",
        lambda v: isinstance(v, list) and 0 < len(v) <= _MAX_DIMS and all(_count(1, _MAX_ELEMENTS)(d) for d in v),
        f"a list of 1 to {_MAX_DIMS} positive integers",
    ),
    ("stimuli", _count(1, _MAX_STIMULI), f"an integer from 1 to {_MAX_STIMULI}"),
    ("batch_size", _count(1, _MAX_STIMULI), f"an integer from 1 to {_MAX_STIMULI}"),
]

_PYTHON_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MODULE_PATH = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
# A submodule of a model, as named_modules() spells it: Sequential children are numbers (features.0).
_SUBMODULE = re.compile(r"^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$")
_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)?$")


_MAX_PROMPTS, _MAX_PROMPT_CHARS = 4096, 100_000


def _text_problems(inputs):
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
    if not _count(1, _MAX_STIMULI)(inputs.get("batch_size")):
        problems.append(f"subject.inputs.batch_size: expected an integer from 1 to {_MAX_STIMULI}")
    return problems


def _generated_problems(inputs):
    problems = []
    for key, test, expected in _GENERATED_RULES:
        if key not in inputs:
            problems.append(f"subject.inputs.{key}: missing (expected {expected})")
        elif not test(inputs[key]):
            problems.append(f"subject.inputs.{key}: expected {expected} (got {json.dumps(inputs[key])[:80]})")
    return problems


def _model_problems(model):
    """The model's optional fields: dtype, the python builder's source, weights and config_from."""
    problems = []
    if model.get("dtype") is not None and model["dtype"] not in _FLOAT_DTYPES:
        problems.append(
            f"subject.model.dtype: expected one of {', '.join(_FLOAT_DTYPES)} (got {json.dumps(model['dtype'])[:80]})"
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


def _size_problems(inputs):
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


def _pairing_problems(request):
    """`pairing` is absent or null (the process does not pair) or names its baseline, seed and before-block size."""
    pairing = request.get("pairing")
    if pairing is None:
        return []
    expected = (
        f'null or {{"baseline": {{"tool", "module"}}, "seed": integer >= 0, "before": integer from 1 to {_MAX_CALLS}}}'
    )
    baseline = pairing.get("baseline") if isinstance(pairing, dict) else None
    good = (
        isinstance(baseline, dict)
        and isinstance(baseline.get("tool"), str)
        and baseline["tool"]
        and isinstance(baseline.get("module"), str)
        and baseline["module"]
        and _is_int(pairing.get("seed"))
        and pairing["seed"] >= 0
        and _count(1, _MAX_CALLS)(pairing.get("before"))
    )
    return [] if good else [f"pairing: expected {expected} (got {json.dumps(pairing)[:80]})"]


def load_request(path):
    """Read and check REQ.json; raise RequestError listing every problem found."""
    try:
        with open(path, encoding="utf-8") as f:
            request = json.load(f)
    except (OSError, ValueError) as exc:
        raise RequestError(f"cannot read request {path}: {exc}") from exc
    if not isinstance(request, dict):
        raise RequestError(f"request {path}: expected a JSON object")
    problems = _problems(request)
    if problems:
        raise RequestError(f"request {path} is not a wire-version-{WIRE_VERSION} request:\n  " + "\n  ".join(problems))
    return request


def peek(path):
    """Best-effort (cell_id, process_index, mode) of a request that may be broken, for the error result."""
    try:
        with open(path, encoding="utf-8") as f:
            request = json.load(f)
        cell_id = request["cell"]["id"]
        index = request.get("process_index")
        mode = request.get("mode")
        return (
            cell_id if isinstance(cell_id, str) else None,
            index if _is_int(index) and index >= 0 else None,
            mode if mode in ("time", "memory") else None,
        )
    except Exception:  # noqa: BLE001 - anything unreadable just leaves the fields null
        return None, None, None
