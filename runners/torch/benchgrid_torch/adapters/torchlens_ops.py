"""torchlens's own operations (group B): each function times one torchlens operation on the subject."""

import os
import shutil

import torchlens as tl
from torchlens.options import CaptureOptions


def raw_forward_wrapped(ctx):
    """A plain forward after one trace in this process: torch's functions stay wrapped, nothing is recorded."""
    model, x = ctx.model, ctx.inputs
    # tl.trace wraps torch on its first call and leaves the wrappers installed (unwrap_when_done=False).
    tl.trace(model, x)

    def run():
        return model(x)

    return run


def full_trace_default(ctx):
    """`tl.trace(model, x)`: every op recorded and saved, default options."""
    model, x = ctx.model, ctx.inputs

    def run():
        return tl.trace(model, x)

    return run


def full_trace_declared(ctx):
    """The same full trace with its options declared (CaptureOptions, backend) instead of resolved by default."""
    model, x = ctx.model, ctx.inputs
    capture = CaptureOptions(layers_to_save="all")

    def run():
        return tl.trace(model, x, capture=capture, backend="torch")

    return run


def record(ctx):
    """`tl.record` over the whole forward: the sparse recorder keeping every op's output, no trace graph."""
    model, x = ctx.model, ctx.inputs

    def run():
        return tl.record(model, x, default_op=True)

    return run


def validate(ctx):
    """`tl.validate(model, x, scope="forward")`: replays the trace against the model's own forward."""
    model, x = ctx.model, ctx.inputs

    def run():
        return tl.validate(model, x, scope="forward")

    return run


def save_load(ctx):
    """`tl.save` of a full trace (taken in prepare) to a .tlspec bundle in tmpdir, then `tl.load` of it."""
    trace = tl.trace(ctx.model, ctx.inputs)
    path = os.path.join(ctx.tmpdir, "trace.tlspec")

    def run():
        tl.save(trace, path, overwrite=True)
        return tl.load(path)

    return run


def backward_capture(ctx):
    """A full trace with every gradient saved, then `trace.log_backward` from its output's sum."""
    model, x = ctx.model, ctx.inputs
    capture = CaptureOptions(save_grads=True)

    def run():
        # The harness runs this operation with grad enabled (`grad: true` for backward_capture in runners/harness/contracts.json).
        trace = tl.trace(model, x, capture=capture)
        trace.log_backward(trace[trace.output_layers[0]].out.sum())
        return trace

    return run


def draw(ctx):
    """`trace.draw` of a full trace (taken in prepare) through Graphviz to a file in tmpdir, not opened."""
    # Graphviz is a system program, not a pip package: a machine without it cannot do this cell, which is
    # `unsupported` (with the fix), not an `error` of torchlens: the README's commands must work on a bare machine.
    if shutil.which("dot") is None:
        ctx.unsupported(
            "torchlens draw renders through Graphviz, and its `dot` executable is not on PATH; "
            "install Graphviz (apt-get install graphviz, brew install graphviz, or conda install graphviz)"
        )
    trace = tl.trace(ctx.model, ctx.inputs)
    path = os.path.join(ctx.tmpdir, "graph")

    def run():
        return trace.draw(vis_outpath=path, vis_save_only=True)

    return run


def bundle_compare(ctx):
    """`tl.bundle` of a clean and a site-ablated trace of the inputs (taken in prepare), ranked by `most_changed`."""
    if ctx.site is None:
        # Bundle comparisons refuse members captured from different input values (BundleRelationshipError:
        # "requires value-level input identity"), so the second member needs an intervention, hence a site.
        ctx.unsupported(
            "bundle_compare compares a clean and an ablated trace of the same input; give the contract a site to ablate"
        )
    model, x = ctx.model, ctx.inputs
    ablated = tl.when(tl.module(ctx.site), tl.zero_ablate())
    traces = {"clean": tl.trace(model, x), "ablated": tl.trace(model, x, intervene=ablated)}

    def run():
        return tl.bundle(traces, baseline="clean").most_changed()

    return run
