"""The effect-size guard and the task-level agreement of decoder outputs (docs/contracts.md, "Does the write move
the output?").

A contract that writes (an edit, steering, patching) is judged by comparing each tool's result with the
reference's. That comparison proves nothing when the write itself leaves the output where it was: a tool whose
write silently does nothing would then agree with the reference bit for bit. So the reference's process also
computes the contract's output with the write left out (the plain forward, `unwritten`) and records how far the
reference's write moves the output from it; where that is within the exactness tolerance, the cell cannot be
judged, and its verdict is `vacuous`.

Decoder outputs are also compared as a user reads them: logits by the top token at each position and by the
distance between their softmax distributions, generated tokens by how many agree and where they first part.
"""

import dataclasses

import torch

from . import exactness
from .errors import HarnessError

#: What a contract's output is, when it is more than numbers (the kind's `output` in contracts.json).
OUTPUTS = ("logits", "tokens")

#: Positions whose softmax is taken at once.
_CHUNK = 1024


def _forward(ctx, _rerun):
    """The logits of one plain forward (replacement_edit without its edit)."""
    return ctx.model(ctx.inputs)


def _forward_per_strength(ctx, _rerun):
    """The plain logits once per strength, stacked as repeated_steering stacks its steered ones (a view on the CPU:
    one forward's logits, not one copy per strength on the device)."""
    logits = exactness.to_cpu(ctx.model(ctx.inputs))
    return logits.unsqueeze(0).expand(len(ctx.strengths), *logits.shape)


def _corrupted_forward(ctx, _rerun):
    """activation_patching without the patch: the corrupted run's logits[:, -1, answer] - logits[:, -1, wrong]."""
    logits = ctx.model(ctx.corrupted)
    return logits[:, -1, int(ctx.params["answer_token"])] - logits[:, -1, int(ctx.params["wrong_token"])]


def _unsteered(_ctx, rerun):
    """steered_generation at strength 0: the reference's own generation, whose steering then adds exact zeros, so
    that the tokens differ from the steered ones by the steering alone (not by another way of generating)."""
    return rerun({"strength": 0.0})


#: How the harness computes a writing contract's output without the write (the kind's `writes` in contracts.json).
UNWRITTEN = {
    "forward": _forward,
    "forward_per_strength": _forward_per_strength,
    "corrupted_forward": _corrupted_forward,
    "unsteered": _unsteered,
}


def facts(contract):
    """(writes, output) of a request's contract: how its unwritten output is computed (None: it does not write) and
    what its output is (None: numbers); a form the harness does not know is an error, never a silent pass."""
    writes, output = contract.get("writes"), contract.get("output")
    if writes is not None and writes not in UNWRITTEN:
        raise HarnessError(
            f"contract.writes: {writes!r} is not one of {sorted(UNWRITTEN)} (runners/harness/contracts.json)"
        )
    if output is not None and output not in OUTPUTS:
        raise HarnessError(
            f"contract.output: {output!r} is not one of {list(OUTPUTS)} (runners/harness/contracts.json)"
        )
    return writes, output


def unwritten(writes, ctx, function):
    """The contract's output with the write left out, on the CPU. `function` is the reference's contract function,
    called again on a copy of the ctx for the forms that rerun it with other parameters."""

    def rerun(params):
        return function(dataclasses.replace(ctx, params={**ctx.params, **params}, notes=[]))()

    return exactness.to_cpu(UNWRITTEN[writes](ctx, rerun))


def _positions(value, padded):
    """A logits tensor as [positions, vocabulary]: every leading axis is a position; with `padded` (text inputs'
    pad positions, [batch, seq]) and a [batch, seq, vocab] layout, the padded positions are left out."""
    if padded is not None and value.dim() == 3 and tuple(value.shape[:2]) == tuple(padded.shape):
        return value[~padded]
    return value.reshape(-1, value.shape[-1])


def logits_agreement(got, want, padded=None):
    """{top1_agreement: the fraction of positions whose argmax is the same, tv_distance: the total-variation
    distance of the two softmax distributions, 0.5 * sum |p - q|, averaged over positions}; None for either
    when the two cannot be lined up (not tensors, other shapes, no positions)."""
    none = {"top1_agreement": None, "tv_distance": None}
    if not (isinstance(got, torch.Tensor) and isinstance(want, torch.Tensor)) or got.shape != want.shape:
        return none
    if got.dim() == 0 or not (got.is_floating_point() and want.is_floating_point()):
        return none
    got_p, want_p = _positions(got, padded), _positions(want, padded)
    if got_p.shape[0] == 0 or got_p.shape[1] == 0 or not (got_p.isfinite().all() and want_p.isfinite().all()):
        return none
    same = tv = 0.0
    # In float64, a chunk of positions at a time: a GPU spec's stacked logits are billions of values.
    for start in range(0, got_p.shape[0], _CHUNK):
        g, w = got_p[start : start + _CHUNK].to(torch.float64), want_p[start : start + _CHUNK].to(torch.float64)
        same += float((g.argmax(dim=-1) == w.argmax(dim=-1)).sum())
        tv += float(0.5 * (torch.softmax(g, dim=-1) - torch.softmax(w, dim=-1)).abs().sum())
    count = got_p.shape[0]
    # Rounding may carry the sum a hair past its bound of 1.
    return {"top1_agreement": same / count, "tv_distance": min(1.0, tv / count)}


def tokens_agreement(got, want, prompt_length):
    """{top1_agreement: the fraction of generated positions (every sequence's new tokens) holding the same token,
    first_divergence: the index among the new tokens (0: the first) of the first one at which any sequence
    differs, None where none does}; both None when the two cannot be lined up."""
    none = {"top1_agreement": None, "first_divergence": None}
    if not (isinstance(got, torch.Tensor) and isinstance(want, torch.Tensor)) or got.shape != want.shape:
        return none
    if got.dim() != 2 or got.shape[1] <= prompt_length:
        return none
    same = got[:, prompt_length:] == want[:, prompt_length:]
    parted = (~same).any(dim=0).nonzero()
    return {
        "top1_agreement": float(same.to(torch.float64).mean()),
        "first_divergence": int(parted[0, 0]) if parted.numel() else None,
    }


def agreement(got, want, output, padded=None, prompt_length=0):
    """The task-level figures of `got` against `want` for an output kind (`logits`, `tokens`); None otherwise."""
    if output == "logits":
        return logits_agreement(got, want, padded)
    if output == "tokens":
        return tokens_agreement(got, want, prompt_length)
    return None


def guard(written, plain, output, rtol, atol, padded=None, prompt_length=0):
    """The effect of the reference's write: how far `written` (its result) is from `plain` (the unwritten output).
    `vacuous` when the two are within the exactness tolerance (exactness.py decides `bit`/`close` the same way):
    a tool that wrote nothing would then pass. Generated tokens are compared exactly, like their exactness."""
    written, plain = exactness.to_cpu(written), exactness.to_cpu(plain)
    if padded is not None:
        written, plain = exactness.without_padding(written, padded), exactness.without_padding(plain, padded)
    verdict, diff = exactness.verdict(written, plain, rtol, atol)
    figures = {"max_abs_diff": None if output == "tokens" else diff, "vacuous": verdict in ("bit", "close")}
    figures.update(agreement(written, plain, output, padded, prompt_length) or {})
    return figures


def judged(exact, effect, figures):
    """The `exact` object with the guard's figures (`effect`, null for a contract that does not write) and the
    task-level ones (`agreement`); a `bit` or `close` verdict becomes `vacuous` where the write does not move the
    output. A mismatch stays one: the tool's output differs from the reference's whatever the write did."""
    out = dict(exact, effect=effect, agreement=figures)
    if effect is not None and effect["vacuous"] and exact["verdict"] in ("bit", "close"):
        out["verdict"] = "vacuous"
    return out
