"""Execute one cell in this process, in the order docs/protocol.md fixes (the tool's library is imported last)."""

import shutil
import tempfile

import torch

from . import adapters, effect, exactness, memory, pairing, precision_control, timing, witnesses
from .machine import LoadProbe
from .context import make_context
from .device import resolve_device, synchronize
from .errors import HarnessError, Unsupported
from .subjects import build_subject


def grad_mode(request):
    """A fresh grad-mode context manager: autograd on when the contract needs it (`contract.grad`, from
    runners/harness/contracts.json), else torch.no_grad()."""
    return torch.enable_grad() if request["contract"]["grad"] else torch.no_grad()


def _reference_result(request, ctx):
    """One call of the reference's contract callable, moved to the CPU so it holds no device memory; and, for a
    contract that writes, the effect-size guard's figures (effect.py: how far the write moves the output), else None."""
    reference, kind = request["reference"], request["contract"]["kind"]
    writes, output = effect.facts(request["contract"])
    module = adapters.import_reference(reference["module"])
    function = adapters.contract_function(module, kind, f"reference {reference['tool']}", False)
    with grad_mode(request):
        expected = exactness.to_cpu(function(ctx)())
        if writes is None:
            return expected, None
        plain = effect.unwritten(writes, ctx, function)
    figures = effect.guard(
        expected,
        plain,
        output,
        request["settings"]["rtol"],
        request["settings"]["atol"],
        _padded(ctx),
        ctx.inputs.shape[-1],
    )
    return expected, figures


def _padded(ctx):
    """Text inputs' pad positions on the CPU (True there), or None for inputs without padding."""
    return (ctx.inputs == ctx.pad_id).cpu() if ctx.pad_id is not None else None


def _check(request, ctx, last, expected, guard):
    """The `exact` object of the tool's last result against the reference's, with the guard's and the task-level
    figures (effect.py)."""
    settings, reference = request["settings"], request["reference"]
    padded = _padded(ctx)
    exact = exactness.compare(last, expected, reference["tool"], settings["rtol"], settings["atol"], padded)
    if padded is not None and bool(padded.any()) and exactness.has_positions(expected, padded):
        ctx.note(
            f"exactness is judged at the prompts' {int((~padded).sum())} real token positions: the "
            f"{int(padded.sum())} padded positions are the output of no token, and tools fill them differently"
        )
    output = effect.facts(request["contract"])[1]
    figures = effect.agreement(exactness.to_cpu(last), expected, output, padded, ctx.inputs.shape[-1])
    return effect.judged(exact, guard, figures)


def _controlled(request, ctx, state, exact, expected, phases):
    """The cell's `exact`, re-judged by the precision control where a reduced-precision subject's verdict asks for
    it (precision_control.py): last of all, untimed, so that nothing of it lands in a sample or a witness."""
    dtype = state["subject"]["dtype"]
    needed, limit = precision_control.needs_control(
        dtype, exact, expected, request["settings"].get("float32_tolerance")
    )
    if not needed:
        return exact
    with phases("precision_control"):
        control = precision_control.run(request, dtype, limit, ctx.device, lambda: grad_mode(request), ctx.tmpdir)
    return precision_control.judged(exact, control)


def _prepare_tool(request, ctx, phases, state):
    """Import the tool's adapter (first import of its library here) and call its contract function."""
    tool, kind = request["tool"], request["contract"]["kind"]
    with phases("imports"):
        module = adapters.import_tool(tool["module"], tool["library"])
    state["library"] = tool["library"]
    function = adapters.contract_function(module, kind, f"adapter {tool['id']}", True)
    with phases("prepare"), grad_mode(request):
        try:
            run = function(ctx)
        except ModuleNotFoundError as exc:  # a library the adapter imports lazily
            raise Unsupported(f"{state['library'] or exc.name} not importable: {type(exc).__name__}: {exc}") from exc
    if not callable(run):
        raise HarnessError(f"adapter {tool['id']}: {kind}(ctx) returned {type(run).__name__}, not a callable")
    return run


def _time(request, ctx, phases, state, twin):
    """Time mode: reference pass, [the baseline's block before the import], prepare, warm-ups, timed samples
    (or pairs with the baseline, pairing.py), then the exactness check and the witness call."""
    settings, reference = request["settings"], request["reference"]
    expected = guard = None
    if reference is not None:
        with phases("reference"):
            expected, guard = _reference_result(request, ctx)
    paired = _pairing_header(request, twin)
    baseline = None
    if paired is not None and paired["unpaired"] is None:
        with phases("before"), grad_mode(request):
            paired["before"], baseline = pairing.before_block(request, twin)
            # The baseline's own work witness, untimed and before the tool's import: the baseline cell's figures
            # come from these blocks, so its witness does too.
            paired["before"]["work"] = _witness(request, twin, baseline)
        # Kept for the result even if the tool then fails: the block is the baseline's own measurement.
        state["paired"] = paired
    run = _prepare_tool(request, ctx, phases, state)
    with phases("warmup"), grad_mode(request):
        timing.warm_up(run, settings["warmups"], ctx.device)
    with phases("timed"), grad_mode(request):
        # What the rest of the machine did meanwhile, read before the first clock and after the last.
        probe = LoadProbe().start()
        if baseline is None:
            measured, last = timing.sample(run, settings, ctx.device)
        else:
            spent = (sum(paired["before"]["baseline_ms"]) + sum(paired["before"]["baseline_gc_ms"])) / 1e3
            measured, after, last = timing.timed_pairs(
                request, run, baseline, ctx.device, pairing.new_rng(request), spent
            )
            paired.update(after)
        measured["load"] = probe.stop()
    exact = None
    if reference is not None:
        with phases("check"):
            exact = _check(request, ctx, last, expected, guard)
    with phases("witness"):
        work = _witness(request, ctx, run)
    if exact is not None:
        exact = _controlled(request, ctx, state, exact, expected, phases)
    return {"status": "ok", "timing": measured, "exact": exact, "work": work, "notes": ctx.notes, "paired": paired}


def _pairing_header(request, twin):
    """The result's `paired` object as far as it is known before timing: null when the request does not
    pair; `unpaired` says why a process that was asked to pair could not (its twin was not identical)."""
    asked = request.get("pairing")
    if asked is None:
        return None
    header = {"baseline": asked["baseline"]["tool"], "seed": asked["seed"], "unpaired": None}
    if isinstance(twin, str):
        header["unpaired"] = twin
    return header


def _witness(request, ctx, run):
    """One untimed call after the samples with the work witnesses installed (benchgrid_harness/witnesses.py)."""
    tokens = [ctx.inputs] + list(ctx.batches) if ctx.pad_id is not None else ()
    observed, _ = witnesses.observe(run, ctx.model, ctx.final_module, grad_mode(request), ctx.device, tokens)
    contract_work = request["contract"]["work"]
    return {
        "witnesses": observed,
        "required": witnesses.required(contract_work, ctx),
        "differs": witnesses.differences(observed, contract_work, ctx),
    }


def _memory(request, ctx, phases, state):
    """Memory mode: prepare, warm-ups, then `memory_calls` calls; peaks are read after them (no reference)."""
    settings = request["settings"]
    memory.reset_peaks(ctx.device)
    run = _prepare_tool(request, ctx, phases, state)
    with phases("warmup"), grad_mode(request):
        timing.warm_up(run, settings["warmups"], ctx.device)
    with phases("timed"), grad_mode(request):
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
            state["subject"] = subject.record
            ctx = make_context(subject, request, device, tmpdir)
            # The baseline's own copy (pairing.py); a string instead says why the process cannot pair.
            twin = None
            if request["mode"] == "time" and request.get("pairing") is not None:
                built, why = pairing.build_twin(request, ctx, device)
                twin = built if built is not None else why
        if request["mode"] == "memory":
            return _memory(request, ctx, phases, state)
        return _time(request, ctx, phases, state, twin)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
