"""Group B's reference operations: what a plain forward and hooking every module cost."""

from benchgrid_torch.adapters.raw import single_module_output

# One plain forward pass: the raw tool's.
raw_forward = single_module_output


def hooks_all_modules(ctx):
    """One forward pass with a forward hook on every module keeping a reference to its output."""
    model, x = ctx.model, ctx.inputs
    modules = list(model.modules())

    def run():
        kept = []
        keep = lambda _module, _args, output: kept.append(output)  # noqa: E731
        handles = [module.register_forward_hook(keep) for module in modules]
        try:
            model(x)
        finally:
            for handle in handles:
                handle.remove()
        return kept

    return run
