"""Load a request file and check the parts the harness relies on (schemas/request.schema.json is the full contract)."""

import json
import re

from . import WIRE_VERSION
from .errors import RequestError
from .protocol import is_int as _is_int
from .protocol import is_number as _is_number
from .protocol import maximum, settings_problems
from .request_subject import FLOAT_DTYPES as _FLOAT_DTYPES
from .request_subject import count as _count
from .request_subject import generated_problems, model_problems, size_problems, text_problems

_DEVICE = re.compile(r"^(cpu|cuda(:[0-9]+)?)$")
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9_]*$")
# Upper bounds of what the harness allocates or loops over, as the spec's schema bounds them (a request
# file is hostile until checked: samples of 10**12 would preallocate terabytes before the first call);
# the settings' own come from the protocol table (protocol.py).
_MAX_CALLS = maximum("samples")
_MAX_SEED = 2**64 - 1  # torch.manual_seed's range


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
    problems.extend(model_problems(request["subject"]["model"]))
    inputs = request["subject"]["inputs"]
    if inputs["kind"] == "text":
        problems.extend(text_problems(inputs))
    elif inputs["kind"] != "builder":
        problems.extend(generated_problems(inputs))
    if problems:
        return problems
    if inputs["kind"] == "image" and inputs.get("dtype") not in _FLOAT_DTYPES:
        problems.append(
            f"subject.inputs.dtype: expected one of {', '.join(_FLOAT_DTYPES)} for images (got {inputs.get('dtype')!r})"
        )
    if inputs["kind"] == "tokens" and not (_is_int(inputs.get("vocab")) and inputs["vocab"] > 0):
        problems.append(f"subject.inputs.vocab: expected a positive integer for tokens (got {inputs.get('vocab')!r})")
    if inputs["kind"] not in ("builder", "text"):
        problems.extend(size_problems(inputs))
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
