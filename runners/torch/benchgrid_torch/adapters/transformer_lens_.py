"""TransformerLens 4: a `TransformerBridge` over the decoder, read and edited at `blocks.{i}.hook_resid_post`."""

import copy
import re

import torch
from transformer_lens.factories.architecture_adapter_factory import SUPPORTED_ARCHITECTURES
from transformer_lens.model_bridge.sources import build_bridge_from_module


# The seed's reason (reference/resnet18_gpu.results.json) for subjects TransformerLens does not cover.
NOT_A_DECODER = ("TransformerLens reimplements its supported decoder families; generic subjects are not among "
                 "them (decoders are measured in the mech-interp workloads)")


def _bridge(ctx):
    """(bridge, hook point name, block index) for a decoder subject whose site is a block (`...h.<i>`)."""
    architecture = next((cls.__name__ for cls in type(ctx.model).__mro__ if cls.__name__ in SUPPORTED_ARCHITECTURES),
                        None)
    block = re.search(r"\.(\d+)$", ctx.site or "")
    if architecture is None or block is None:
        ctx.unsupported(NOT_A_DECODER)
    # build_bridge_from_module wraps an already-built model with no hub access (boot_transformers would fetch
    # the tokenizer by name). It replaces the model's submodules in place, so it gets a copy and the
    # harness's model stays the one the reference ran.
    bridge = build_bridge_from_module(copy.deepcopy(ctx.model), architecture, hf_config=ctx.model.config)
    index = int(block.group(1))
    return bridge, f"blocks.{index}.hook_resid_post", index


def single_module_output(ctx):
    """The block's output from a whole `run_with_cache` forward caching only the block's hook."""
    bridge, hook_name, _ = _bridge(ctx)
    x = ctx.inputs

    def run():
        _, cache = bridge.run_with_cache(x, names_filter=hook_name)
        return cache[hook_name]

    return run


def site_output_stopped(ctx):
    """The block's output from `run_with_cache`, stopping after that block (`stop_at_layer`)."""
    bridge, hook_name, index = _bridge(ctx)
    x = ctx.inputs

    def run():
        _, cache = bridge.run_with_cache(x, names_filter=hook_name, stop_at_layer=index + 1)
        return cache[hook_name]

    return run


def matched_retained(ctx):
    """(block output, logits) from one `run_with_cache` caching only the block's hook."""
    bridge, hook_name, _ = _bridge(ctx)
    x = ctx.inputs

    def run():
        logits, cache = bridge.run_with_cache(x, names_filter=hook_name)
        return cache[hook_name], logits

    return run


def replacement_edit(ctx):
    """Logits with a forward hook replacing the block's output by zeros."""
    bridge, hook_name, _ = _bridge(ctx)
    x = ctx.inputs

    def zero(activation, hook):
        return torch.zeros_like(activation)

    def run():
        return bridge.run_with_hooks(x, fwd_hooks=[(hook_name, zero)])

    return run


def repeated_steering(ctx):
    """Stacked logits, one `run_with_hooks` per strength s adding s * direction to the block's output."""
    bridge, hook_name, _ = _bridge(ctx)
    x, direction, strengths = ctx.inputs, ctx.direction, ctx.strengths

    def run():
        steered = []
        for s in strengths:
            def steer(activation, hook, s=s):
                return activation + s * direction

            steered.append(bridge.run_with_hooks(x, fwd_hooks=[(hook_name, steer)]))
        return torch.stack(steered)

    return run


def same_site_gradient(ctx):
    """d(logits[:, target].sum()) / d(block output), kept by a backward hook on the block's hook point."""
    bridge, hook_name, _ = _bridge(ctx)
    x, target = ctx.inputs, ctx.target

    def run():
        kept = []

        def keep(gradient, hook):
            kept.append(gradient)

        # bwd_hooks in `hooks()`, not run_with_hooks: run_with_hooks removes the hooks it added when it
        # returns (reset_hooks_end, model_bridge/bridge_core.py), before the caller's backward runs.
        with bridge.hooks(bwd_hooks=[(hook_name, keep)]):
            logits = bridge(x)
            logits[:, target].sum().backward()
        return kept[0]

    return run


def ordered_dataset_features(ctx):
    """The block's outputs over the dataset batches, one whole `run_with_cache` per batch, concatenated."""
    bridge, hook_name, _ = _bridge(ctx)
    batches = ctx.batches

    def run():
        outputs = []
        for batch in batches:
            _, cache = bridge.run_with_cache(batch, names_filter=hook_name)
            outputs.append(cache[hook_name])
        return torch.cat(outputs)

    return run
