"""Compare a tool's result with the reference's: `bit`, `close` (allclose at rtol/atol) or `mismatch` (effect.py
turns agreement into `vacuous` where the contract's write does not move the output)."""

import math

import torch

_RANK = {"bit": 0, "close": 1, "mismatch": 2}


def to_cpu(value):
    """Detached CPU copies of every tensor in a nested tuple/list/dict (other leaves are kept as they are)."""
    if isinstance(value, torch.Tensor):
        return value.detach().cpu()
    if isinstance(value, dict):  # includes transformers' ModelOutput
        return {key: to_cpu(item) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [to_cpu(item) for item in value]
    return value


def _tensors(got, want, rtol, atol):
    """(verdict, max_abs_diff) for two tensors; max_abs_diff is None when they cannot be lined up."""
    if got.shape != want.shape:
        return "mismatch", None
    if got.dtype == want.dtype and torch.equal(got, want):
        return "bit", 0.0
    # Integers (token ids) and booleans are compared exactly: rtol would make a token id close to its neighbours.
    exact_kind = not (got.is_floating_point() or got.is_complex() or want.is_floating_point() or want.is_complex())
    wide = torch.complex128 if (got.is_complex() or want.is_complex()) else torch.float64
    got_w, want_w = got.to(wide), want.to(wide)
    nan_got = torch.isnan(got_w)
    if not torch.equal(nan_got, torch.isnan(want_w)):
        return "mismatch", None
    # NaN where the reference has NaN counts as equal, and so do equal infinities (whose difference is NaN).
    same = (got_w == want_w) | nan_got
    delta = torch.where(same, torch.zeros((), dtype=torch.float64), (got_w - want_w).abs().to(torch.float64))
    diff = float(delta.nan_to_num(nan=math.inf).max()) if delta.numel() else 0.0
    if diff == 0.0:
        return ("bit" if got.dtype == want.dtype else "close"), 0.0
    if exact_kind:
        return "mismatch", diff
    close = torch.allclose(got_w, want_w, rtol=rtol, atol=atol, equal_nan=True)
    return ("close" if close else "mismatch"), (diff if math.isfinite(diff) else None)


def _compare(got, want, rtol, atol):
    """(verdict, max_abs_diff) for nested values; structure differences are a mismatch with no diff."""
    if isinstance(got, torch.Tensor) and isinstance(want, torch.Tensor):
        return _tensors(got, want, rtol, atol)
    if isinstance(got, dict) and isinstance(want, dict):
        if set(got) != set(want):
            return "mismatch", None
        pairs = [(got[key], want[key]) for key in want]
    elif isinstance(got, (tuple, list)) and isinstance(want, (tuple, list)):
        if len(got) != len(want):
            return "mismatch", None
        pairs = list(zip(got, want))
    elif isinstance(got, torch.Tensor) or isinstance(want, torch.Tensor):
        return "mismatch", None
    else:
        return ("bit", 0.0) if got == want else ("mismatch", None)
    verdict, worst = "bit", 0.0
    for item_got, item_want in pairs:
        item_verdict, item_diff = _compare(item_got, item_want, rtol, atol)
        if _RANK[item_verdict] > _RANK[verdict]:
            verdict = item_verdict
        worst = None if worst is None or item_diff is None else max(worst, item_diff)
    return verdict, worst


def verdict(got, want, rtol, atol):
    """(verdict, max_abs_diff) of two CPU values (nested tensors), as `compare` judges them."""
    return _compare(got, want, rtol, atol)


def without_padding(value, padded):
    """`value` with every tensor laid out [batch, position, ...] like the padded token ids zeroed at the padded
    positions (`padded`: True there), so that only real tokens' values are compared. Other tensors (a generation's
    longer token ids, logit differences, attention patterns) are kept whole."""
    if isinstance(value, torch.Tensor):
        if value.dim() >= 2 and tuple(value.shape[:2]) == tuple(padded.shape):
            where = padded.reshape(tuple(padded.shape) + (1,) * (value.dim() - 2))
            return value.masked_fill(where, 0)
        return value
    if isinstance(value, dict):
        return {key: without_padding(item, padded) for key, item in value.items()}
    if isinstance(value, (tuple, list)):
        return [without_padding(item, padded) for item in value]
    return value


def has_positions(value, padded):
    """Whether any tensor of `value` is laid out [batch, position, ...] like the padded token ids."""
    if isinstance(value, torch.Tensor):
        return value.dim() >= 2 and tuple(value.shape[:2]) == tuple(padded.shape)
    if isinstance(value, dict):
        return any(has_positions(item, padded) for item in value.values())
    if isinstance(value, (tuple, list)):
        return any(has_positions(item, padded) for item in value)
    return False


def compare(got, want, reference, rtol, atol, padded=None):
    """The result's `exact` object for `got` (the tool's last result) against `want` (the reference's); with
    `padded` (text inputs' pad positions), values at padded positions are left out (`without_padding`)."""
    got, want = to_cpu(got), to_cpu(want)
    if padded is not None:
        got, want = without_padding(got, padded), without_padding(want, padded)
    verdict, diff = _compare(got, want, rtol, atol)
    return {"verdict": verdict, "max_abs_diff": diff, "reference": reference, "rtol": rtol, "atol": atol}
