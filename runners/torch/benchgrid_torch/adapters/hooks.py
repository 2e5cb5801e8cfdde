"""Forward hooks on the site module: the reference for group A (hooks are removed after every call)."""

import torch


def _replace_first(output, value):
    """`output` with its tensor (or the first element of a tuple output) replaced by `value`."""
    if isinstance(output, tuple):
        return (value,) + output[1:]
    return value


def _first(output):
    """The site's tensor: the output itself, or the first element of a tuple output."""
    return output[0] if isinstance(output, tuple) else output


def _forward_keeping_site(model, site, x):
    """Run the model with a hook that keeps the site's output; returns (site output, logits)."""
    kept = []
    handle = site.register_forward_hook(lambda _module, _args, output: kept.append(output))
    try:
        logits = model(x)
    finally:
        handle.remove()
    return kept[0], logits


def _forward_editing_site(model, site, x, edit):
    """Run the model with a hook that replaces the site's output by edit(site tensor); returns the logits."""
    hook = lambda _module, _args, output: _replace_first(output, edit(_first(output)))  # noqa: E731
    handle = site.register_forward_hook(hook)
    try:
        return model(x)
    finally:
        handle.remove()


def single_module_output(ctx):
    """The site's output from a full forward pass."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        return _forward_keeping_site(model, site, x)[0]

    return run


def matched_retained(ctx):
    """(site output, logits) from one forward pass."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        return _forward_keeping_site(model, site, x)

    return run


def replacement_edit(ctx):
    """Logits with the site's output replaced by zeros."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def run():
        return _forward_editing_site(model, site, x, torch.zeros_like)

    return run


def repeated_steering(ctx):
    """Stacked logits, one forward per strength s with the site output + s * direction."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs
    direction, strengths = ctx.direction, ctx.strengths

    def run():
        return torch.stack([_forward_editing_site(model, site, x, lambda out, s=s: out + s * direction)
                            for s in strengths])

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(site output): a forward hook plus a tensor hook, and a full backward.

    `loss.backward()` reaches every parameter (their .grad accumulate, as in raw's cell); the tensor hook
    registered on the site's output by the forward hook keeps the gradient flowing through it.
    """
    model, site, x, target = ctx.model, ctx.site_module, ctx.inputs, ctx.target

    def run():
        kept = []
        site_output, logits = _forward_keeping_site(model, site, x)
        _first(site_output).register_hook(kept.append)
        logits[:, target].sum().backward()
        return kept[0]

    return run


def site_gradient_only(ctx):
    """d(logits[:, target].sum()) / d(site output) through torch.autograd.grad: no parameter gradients."""
    model, site, x, target = ctx.model, ctx.site_module, ctx.inputs, ctx.target

    def run():
        site_output, logits = _forward_keeping_site(model, site, x)
        (gradient,) = torch.autograd.grad(logits[:, target].sum(), _first(site_output))
        return gradient

    return run


class _Stop(Exception):
    """Raised by the stopping hook once the site's output is kept: the rest of the forward never runs."""


def site_output_stopped(ctx):
    """The site's output, the forward ended by an exception from the site's forward hook (as nnsight's stop)."""
    model, site, x = ctx.model, ctx.site_module, ctx.inputs

    def stop(_module, _args, output, kept):
        kept.append(output)
        raise _Stop

    def run():
        kept = []
        handle = site.register_forward_hook(lambda m, a, o: stop(m, a, o, kept))
        try:
            model(x)
        except _Stop:
            pass
        finally:
            handle.remove()
        return kept[0]

    return run


def ordered_dataset_features(ctx):
    """The site's outputs over the dataset batches, concatenated in order."""
    model, site, batches = ctx.model, ctx.site_module, ctx.batches

    def run():
        return torch.cat([_first(_forward_keeping_site(model, site, batch)[0]) for batch in batches])

    return run
