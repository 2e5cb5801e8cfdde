"""Work witnesses: what one untimed call of the tool really did, observed by the harness (docs/contracts.md).

The witness call is a separate call of the same `run` callable after the timed samples, never one of them:
the samples carry no instrument at all, so nothing here can add to a measured figure. The instruments are
torch's global module hooks (`register_module_forward_pre_hook` / `register_module_forward_hook`), installed
just before that call and removed after it. They return None, so they change no module's output, and being
global they also see modules a tool runs through a rebuilt model: an FX GraphModule calls the original
submodules, and a copied model (TransformerLens's bridge deep-copies the model) runs modules that are equal
to the originals in class and parameter shapes, which is how the final module is recognised.
"""

import torch

from .device import synchronize
from .hooked import with_hooks


def _signature(module):
    """What identifies a module across copies: its class and the shapes of its own parameters."""
    return type(module).__name__, tuple(tuple(p.shape) for p in module.parameters(recurse=False))


def find_final_module(model, inputs):
    """The leaf module whose forward finishes last in a plain forward: the one that produces the model's output."""
    order = []
    handles = [
        m.register_forward_hook(lambda module, _args, _output: order.append(module))
        for m in model.modules()
        if next(m.children(), None) is None
    ]
    with torch.no_grad():
        with_hooks(handles, model, inputs)
    return order[-1] if order else None


def result_bytes(value):
    """Bytes held by the tensors of a returned value (tensors, tuples, lists and dicts of them)."""
    if isinstance(value, torch.Tensor):
        return value.nelement() * value.element_size()
    if isinstance(value, (tuple, list)):
        return sum(result_bytes(v) for v in value)
    if isinstance(value, dict):
        return sum(result_bytes(v) for v in value.values())
    return 0


def _holds(ids, tokens):
    """Whether the embedded `ids` are `tokens`, or hold them as consecutive rows (a tool that batches the
    clean and the corrupted run into one forward embeds both)."""
    rows = tokens.shape[0]
    if ids.dim() != tokens.dim() or ids.shape[1:] != tokens.shape[1:] or ids.shape[0] < rows:
        return False
    return any(torch.equal(ids[at : at + rows], tokens) for at in range(ids.shape[0] - rows + 1))


class _Counter:
    """The hooks' state during the witness call: final-module calls, every parameter seen, and (text subjects)
    whether the token embedding was given the subject's own token ids."""

    def __init__(self, final, embedding=None, tokens=()):
        self.final, self.signature = final, _signature(final) if final is not None else None
        self.final_calls = 0
        self.params = {}
        self._is_final = {}
        self.embedding = _signature(embedding) if embedding is not None else None
        self.tokens, self.embedded, self.saw_tokens = list(tokens), 0, False

    def pre(self, module, args):
        # A parameter's .grad is cleared the first time its module runs, so `.grad` afterwards says whether
        # this call's backward reached it (a tool's copy of the model included).
        for p in module.parameters(recurse=False):
            if id(p) not in self.params:
                self.params[id(p)] = p
                p.grad = None
        if self.embedding is not None and not self.saw_tokens and _signature(module) == self.embedding:
            ids = args[0] if args and isinstance(args[0], torch.Tensor) else None
            if ids is not None and not ids.is_floating_point():
                self.embedded += 1
                self.saw_tokens = any(_holds(ids, t) for t in self.tokens)

    def post(self, module, _args, _output):
        hit = self._is_final.get(id(module))
        if hit is None:
            hit = module is self.final or (self.signature is not None and _signature(module) == self.signature)
            self._is_final[id(module)] = hit
        if hit:
            self.final_calls += 1


def observe(run, model, final, grad_mode, device, tokens=()):
    """Call `run` once with the instruments installed; returns (witnesses dict, the call's result).

    `tokens`: a text subject's token ids (its batch and its dataset batches). The call's `tokens` witness is then
    "same" when the model's token embedding (or a copy's: same class and shape) was given one of them, "other"
    when it embedded only other ids (a tool that retokenized, prepended a token or dropped the padding), and
    "none" when it embedded nothing."""
    embedding = model.get_input_embeddings() if tokens and hasattr(model, "get_input_embeddings") else None
    counter = _Counter(final, embedding, tokens)
    for p in model.parameters():
        p.grad = None
    hooks = torch.nn.modules.module
    handles = [hooks.register_module_forward_pre_hook(counter.pre), hooks.register_module_forward_hook(counter.post)]
    try:
        with grad_mode:
            result = run()
        synchronize(device)
    finally:
        for handle in handles:
            handle.remove()
    params = list(counter.params.values()) + list(model.parameters())
    witnesses = {
        "forwards": counter.final_calls,
        "parameter_grads": any(p.grad is not None for p in params),
        "result_bytes": result_bytes(result),
    }
    if embedding is not None:
        witnesses["tokens"] = "same" if counter.saw_tokens else "other" if counter.embedded else "none"
    return witnesses, result


def _required_forwards(value, ctx):
    """The contract's `forwards`: a count, or the number of strengths or batches of this cell."""
    if value == "strengths":
        return len(ctx.strengths)
    if value == "batches":
        return len(ctx.batches)
    return int(value)


def _forward_words(seen, needed):
    """The difference in forward passes, in words."""
    if seen == 0:
        return "stops at the site"
    if needed == 0:
        return "runs the whole model"
    if seen == 2 * needed:
        return "runs the forward twice"
    return f"runs the model's last module {seen} times where the contract needs {needed}"


def differences(witnesses, work, ctx):
    """Where the observed witnesses differ from the contract's required work, in words ([] when they agree)."""
    if not work:
        return []
    out = []
    needed = _required_forwards(work["forwards"], ctx)
    if witnesses["forwards"] != needed:
        out.append(_forward_words(witnesses["forwards"], needed))
    if work["parameter_grads"] and not witnesses["parameter_grads"]:
        out.append("no parameter gradients")
    if not work["parameter_grads"] and witnesses["parameter_grads"]:
        out.append("fills parameter gradients")
    if witnesses.get("tokens") == "other":
        out.append("embeds other token ids than the subject's")
    return out


def required(work, ctx):
    """The contract's required work resolved for this cell (counts instead of 'strengths'/'batches'), or None."""
    if not work:
        return None
    return {"forwards": _required_forwards(work["forwards"], ctx), "parameter_grads": bool(work["parameter_grads"])}
