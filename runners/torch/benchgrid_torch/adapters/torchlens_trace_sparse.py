"""torchlens `tl.trace` with a sparse `save=` selector: one trace per forward, keeping only what is read."""

import torch
import torchlens as tl
from torchlens.options import CaptureOptions


def _logits_selector(model, x):
    """A selector for the module whose output the model returns (e.g. `fc`), from a metadata-only trace."""
    # A module selector, not tl.label(...) of the op: finalized labels are refused by live selectors
    # (LiveModeLabelError with intervene=) and make save= take the two-pass discovery path.
    probe = tl.trace(model, x, save=None)
    output_op = probe[probe[probe.output_layers[0]].parents[0]]
    return tl.module(output_op.output_of_modules[0])


def _saved(trace, selector):
    """The output a trace saved at `selector` (the first site it matched)."""
    return trace.find_sites(selector).first().out


def _selectors(ctx):
    """(model, inputs, the site's module selector, the logits' selector) for a contract that reads the logits."""
    return ctx.model, ctx.inputs, tl.module(ctx.site), _logits_selector(ctx.model, ctx.inputs)


def single_module_output(ctx):
    """The site's output from a trace of the whole forward, saving only the site."""
    model, x, site = ctx.model, ctx.inputs, tl.module(ctx.site)
    return lambda: _saved(tl.trace(model, x, save=site), site)


def site_output_stopped(ctx):
    """The site's output; `halt=` ends the forward once the site has run."""
    model, x, site = ctx.model, ctx.inputs, tl.module(ctx.site)
    return lambda: _saved(tl.trace(model, x, save=site, halt=site), site)


def matched_retained(ctx):
    """(site output, logits) from one trace saving exactly those two ops."""
    model, x, site, logits = _selectors(ctx)

    def run():
        trace = tl.trace(model, x, save=site | logits)
        return _saved(trace, site), _saved(trace, logits)

    return run


def replacement_edit(ctx):
    """Logits of a trace whose `intervene=` spec zero-ablates the site."""
    model, x, site, logits = _selectors(ctx)
    spec = tl.when(site, tl.zero_ablate())
    return lambda: _saved(tl.trace(model, x, save=logits, intervene=spec), logits)


def repeated_steering(ctx):
    """Stacked logits, one trace per strength s steering the site by s * direction."""
    model, x, site, logits = _selectors(ctx)
    specs = [tl.when(site, tl.steer(ctx.direction, magnitude=s)) for s in ctx.strengths]

    def run():
        traces = [tl.trace(model, x, save=logits, intervene=spec) for spec in specs]
        return torch.stack([_saved(trace, logits) for trace in traces])

    return run


def _site_gradient_trace(model, x, save, capture, logits, site, target):
    """One trace saving `save`, a full backward from logits[:, target].sum(), and the site's saved gradient."""
    trace = tl.trace(model, x, save=save, capture=capture)
    trace.log_backward(_saved(trace, logits)[:, target].sum())
    return trace.find_sites(site).first().grad


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output) from `trace.log_backward` (a full backward) with gradients saved.

    Only the site's gradient is saved (`save_grads=site`) where torchlens allows it. In torchlens 2.36.1 a
    selective save_grads records no gradient when the site's output op is in place (ResNet's layer2 ends in
    `relu_`): the deferred hook is installed (torchlens/capture/session.py, resolve_deferred_retention) but
    nothing is recorded; minimal repro: Sequential(Linear, ReLU(inplace=True), Linear) with
    save_grads=tl.module("1") gives 0 grads at "1", 1 with inplace=False or save_grads=True. There the adapter
    falls back to `save_grads=True` (every op's gradient saved) and says so in the cell's note.
    """
    model, x, site, logits = _selectors(ctx)
    target = ctx.target
    capture = CaptureOptions(save_grads=site)
    if _site_gradient_trace(model, x, site | logits, capture, logits, site, target) is None:
        capture = CaptureOptions(save_grads=True)
        ctx.note(
            f"torchlens saves every op's gradient here: a selective save_grads records nothing at "
            f"{ctx.site!r}, whose output op is in place (relu_)"
        )

    def run():
        return _site_gradient_trace(model, x, site | logits, capture, logits, site, target)

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, one whole-forward trace per batch, concatenated in order."""
    model, batches, site = ctx.model, ctx.batches, tl.module(ctx.site)

    def run():
        traces = [tl.trace(model, batch, save=site) for batch in batches]
        return torch.cat([_saved(trace, site) for trace in traces])

    return run


from .torchlens_trace_sparse_ablation import logit_lens, zero_ablation, mean_ablation  # noqa: E402,F401
