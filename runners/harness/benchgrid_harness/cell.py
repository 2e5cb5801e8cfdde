"""Execute one cell in this process, in the order docs/protocol.md fixes (the tool's library is imported last)."""

import shutil
import tempfile

import torch

from . import adapters, exactness, memory, timing
from .context import make_context
from .device import resolve_device, synchronize
from .errors import HarnessError, Unsupported
from .subjects import build_subject

# Contracts whose calls need autograd; every other contract and operation runs under torch.no_grad().
GRAD_CONTRACTS = frozenset({"same_site_gradient", "backward_capture"})


def grad_mode(kind):
    """A fresh grad-mode context manager for contract `kind`."""
    return torch.enable_grad() if kind in GRAD_CONTRACTS else torch.no_grad()


def _reference_result(reference, kind, ctx):
    """One call of the reference's contract callable, moved to the CPU so it holds no device memory."""
    module = adapters.import_reference(reference["module"])
    function = adapters.contract_function(module, kind, f"reference {reference['tool']}", False)
    with grad_mode(kind):
        return exactness.to_cpu(function(ctx)())


def _prepare_tool(request, ctx, phases, state):
    """Import the tool's adapter (first import of its library here) and call its contract function."""
    tool, kind = request["tool"], request["contract"]["kind"]
    with phases("imports"):
        module = adapters.import_tool(tool["module"], tool["library"])
    state["library"] = adapters.library_of(module, tool["library"])
    function = adapters.contract_function(module, kind, f"adapter {tool['id']}", True)
    with phases("prepare"), grad_mode(kind):
        try:
            run = function(ctx)
        except ModuleNotFoundError as exc:  # a library the adapter imports lazily
            raise Unsupported(f"{state['library'] or exc.name} not importable: {type(exc).__name__}: {exc}") from exc
    if not callable(run):
        raise HarnessError(f"adapter {tool['id']}: {kind}(ctx) returned {type(run).__name__}, not a callable")
    return run


def _time(request, ctx, phases, state):
    """Time mode: reference pass, prepare, warm-ups, timed samples, then the exactness check."""
    settings, kind, reference = request["settings"], request["contract"]["kind"], request["reference"]
    expected = None
    if reference is not None:
        with phases("reference"):
            expected = _reference_result(reference, kind, ctx)
    run = _prepare_tool(request, ctx, phases, state)
    with phases("warmup"), grad_mode(kind):
        timing.warm_up(run, settings["warmups"], ctx.device)
    with phases("timed"), grad_mode(kind):
        measured, last = timing.sample(run, settings, ctx.device)
    exact = None
    if reference is not None:
        with phases("check"):
            exact = exactness.compare(last, expected, reference["tool"], settings["rtol"], settings["atol"])
    return {"status": "ok", "timing": measured, "exact": exact}


def _memory(request, ctx, phases, state):
    """Memory mode: prepare, warm-ups, then `memory_calls` calls; peaks are read after them (no reference)."""
    settings, kind = request["settings"], request["contract"]["kind"]
    memory.reset_peaks(ctx.device)
    run = _prepare_tool(request, ctx, phases, state)
    with phases("warmup"), grad_mode(kind):
        timing.warm_up(run, settings["warmups"], ctx.device)
    with phases("timed"), grad_mode(kind):
        for _ in range(settings["memory_calls"]):
            run()
        synchronize(ctx.device)
    return {"status": "ok", "memory": memory.read_peaks(ctx.device)}


def run_cell(request, phases, state):
    """Run the cell described by `request`; returns the outcome (status and its measurements)."""
    device = resolve_device(request["device"])
    torch.set_num_threads(request["settings"]["threads"])
    tmpdir = tempfile.mkdtemp(prefix="benchgrid-cell-")
    try:
        with phases("build"):
            subject = build_subject(request["subject"], device)
            ctx = make_context(subject, request, device, tmpdir)
        if request["mode"] == "memory":
            return _memory(request, ctx, phases, state)
        return _time(request, ctx, phases, state)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
