"""The precision control (docs/contracts.md, "Differs only by precision?").

On a subject of reduced precision (bfloat16, float16) a tool that computes the contract exactly as the reference
does may still land far from it: it accumulates in another order, upcasts an activation, or runs a kernel of
another precision. Its cell's `close` (beyond what float32 rounding explains) or `mismatch` then says nothing about
whether the tool computes the contract. So, untimed and after the samples, the harness builds the same subject at
float32 in this process, runs the reference and the tool once each on it, and compares again at the float32
tolerance: agreement there makes the verdict `degraded` (the tool differs only by precision); disagreement is a
`mismatch` whatever the precision.

The decision is pure (`needs_control`, `judged`); `run` builds and calls.
"""

import math

import torch

from . import adapters, exactness
from .context import make_context
from .subjects import build_subject

#: The dtypes whose cells the control may re-judge.
REDUCED = ("bfloat16", "float16")

#: The float32-rounding bound, relative to the output's scale (its largest finite magnitude). float32's unit
#: roundoff is 2**-24 (6e-8); a forward's rounding grows with its reductions' length n, about sqrt(n) units for the
#: sums of a matmul or a convolution (n of 10**3 to 10**4: 2e-6 to 6e-6 of the scale), and reordered float32
#: arithmetic measured here stays below it (TransformerLens's bridge against hooks: 8e-7 on block outputs of
#: magnitude 1 to 4, specs/decoders_bf16_cpu.yaml). One bfloat16 step is 2**-8 (3.9e-3) of a value and one float16
#: step 2**-11 (4.9e-4): any difference the reduced precision makes lands far above it.
FLOAT32_RELATIVE = 1e-5

#: Verdicts at float32 that count as agreement (the contract's tolerance decides `close`, as it does every cell's).
_AGREEING = ("bit", "close")


def scale(value):
    """The largest finite magnitude of the floating tensors in a nested value (0.0 when it has none)."""
    if isinstance(value, torch.Tensor):
        if not value.is_floating_point() or value.numel() == 0:
            return 0.0
        # In the tensor's own dtype: a float64 copy of a GPU spec's logits would be gigabytes.
        return float(value.detach().abs().nan_to_num(nan=0.0, posinf=0.0, neginf=0.0).max())
    items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
    return max((scale(item) for item in items), default=0.0)


def bound(reference_scale):
    """The largest difference float32 rounding explains for an output of that scale."""
    return FLOAT32_RELATIVE * reference_scale


def needs_control(dtype, exact, expected, tolerance):
    """(whether a cell's `exact` asks for the control, the float32-rounding bound of the reference's output
    `expected`). It does on a subject of reduced precision with a float32 tolerance to judge by (`tolerance`:
    {rtol, atol}, from the request), for a `mismatch`, or a `close` whose max abs diff is beyond the bound; a
    `close` within it, a `bit` or a `vacuous` needs no explanation."""
    if dtype not in REDUCED or exact is None or tolerance is None or exact["verdict"] not in ("close", "mismatch"):
        return False, None
    limit = bound(scale(expected))
    if exact["verdict"] == "mismatch":
        return True, limit
    diff = exact["max_abs_diff"]
    return diff is None or not math.isfinite(diff) or diff > limit, limit


def judged(exact, control):
    """The `exact` object with the control's figures (`precision_control`) and its verdict: `degraded` where the
    control agrees at float32, `mismatch` where it does not; unchanged where the control could not run."""
    out = dict(exact, precision_control=control)
    if control["verdict"] is None:
        return out
    out["verdict"] = "degraded" if control["verdict"] in _AGREEING else "mismatch"
    return out


def float32_request(request):
    """The request with its subject at float32: the same builder, seed, weights and inputs, cast to float32."""
    subject = request["subject"]
    return dict(request, subject=dict(subject, model=dict(subject["model"], dtype="float32")))


def _outputs(request, device, grad_mode, tmpdir):
    """(tool's result, reference's result, pad positions) on the float32 subject, each one call, on the CPU; the
    subject is built and probed as the cell's was, then the reference and the tool run in the cell's order."""
    request32 = float32_request(request)
    subject = build_subject(request32["subject"], device)
    ctx = make_context(subject, request32, device, tmpdir)
    kind, reference, tool = request["contract"]["kind"], request["reference"], request["tool"]
    want_fn = adapters.contract_function(adapters.import_reference(reference["module"]), kind, "reference", False)
    got_fn = adapters.contract_function(adapters.import_tool(tool["module"], tool["library"]), kind, tool["id"], True)
    with grad_mode():
        want = exactness.to_cpu(want_fn(ctx)())
    with grad_mode():
        got = exactness.to_cpu(got_fn(ctx)())
    padded = (ctx.inputs == ctx.pad_id).cpu() if ctx.pad_id is not None else None
    return got, want, padded


def run(request, dtype, limit, device, grad_mode, tmpdir):
    """The control's figures: the float32 verdict and max abs diff of the tool against the reference, the float32
    tolerance they were judged at, and the bound that asked for it; `error` (and no verdict) where the control
    itself failed, which leaves the cell's verdict as it was."""
    tolerance = request["settings"]["float32_tolerance"]
    figures = {
        "dtype": "float32",
        "from": dtype,
        "rtol": tolerance["rtol"],
        "atol": tolerance["atol"],
        "bound": limit,
        "verdict": None,
        "max_abs_diff": None,
        "error": None,
    }
    try:
        got, want, padded = _outputs(request, device, grad_mode, tmpdir)
        compared = exactness.compare(
            got, want, request["reference"]["tool"], tolerance["rtol"], tolerance["atol"], padded
        )
    except Exception as exc:  # noqa: BLE001 - a control that fails is recorded; the cell's own figures stand
        figures["error"] = f"{type(exc).__name__}: {exc}"[:500]
        return figures
    figures.update(verdict=compared["verdict"], max_abs_diff=compared["max_abs_diff"])
    return figures
