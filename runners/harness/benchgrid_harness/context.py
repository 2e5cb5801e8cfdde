"""The `ctx` handed to adapters: subject, resolved site, steering direction and scratch space."""

from dataclasses import dataclass, field

import torch

from . import drawn
from .text import pad_id as subject_pad_id
from .errors import HarnessError, Unsupported
from .witnesses import find_final_module


@dataclass
class Context:
    """Everything an adapter's contract function may use (fields as listed in docs/protocol.md)."""

    model: torch.nn.Module
    inputs: torch.Tensor
    batches: list
    site: object  # module path, or None for operations without a site
    site_module: object
    params: dict
    device: torch.device
    direction: object  # tensor shaped like the site output, or None without direction_seed
    strengths: list = field(default_factory=list)
    target: int = 0
    tmpdir: str = ""
    final_module: object = None  # the leaf module producing the model's output (the work witnesses count it)
    notes: list = field(default_factory=list)
    blocks: list = None  # a site that is a ModuleList (residual_cache's blocks): its children, in order
    vector: object = None  # steering vector of the site's width (vector_seed), or None
    corrupted: object = None  # activation_patching's corrupted input (corrupt_seed), or None
    pad_id: object = None  # text inputs: the id that pads (the mask is inputs != pad_id), or None
    sae: dict = None  # a sparse autoencoder's W_enc, b_enc, W_dec, b_dec (sae_width, sae_seed), or None

    def note(self, text):
        """A sentence the result carries to the cell's report (e.g. why the adapter does more work than asked)."""
        if text not in self.notes:
            self.notes.append(text)

    def unsupported(self, reason):
        """Stop here: the result's status becomes `unsupported` with this reason."""
        raise Unsupported(reason)


def _first_tensor(output):
    """The site output itself, or the first tensor of a tuple/list output (e.g. attention modules)."""
    if isinstance(output, torch.Tensor):
        return output
    if isinstance(output, (tuple, list)) and output and isinstance(output[0], torch.Tensor):
        return output[0]
    raise HarnessError(f"the site output is a {type(output).__name__}, not a tensor or a tuple starting with one")


def probe_site(model, inputs, module, path):
    """Shape and dtype of the site output, from one forward with a temporary hook (before any tool is loaded)."""
    seen = []
    handle = module.register_forward_hook(lambda _module, _args, output: seen.append(_first_tensor(output)))
    try:
        with torch.no_grad():
            model(inputs)
    finally:
        handle.remove()
    if not seen:
        raise HarnessError(f"site {path!r} was not called during a forward pass")
    return seen[0].shape, seen[0].dtype


def resolve_site(model, sites, name):
    """Map a site name through subject.sites (else take it as a module path) and find the module."""
    path = sites.get(name, name)
    try:
        return path, model.get_submodule(path)
    except AttributeError as exc:
        raise HarnessError(f"site {name!r} (module path {path!r}) is not a submodule of the model: {exc}") from exc


def _probed(module):
    """The module whose output the probe reads: a ModuleList of blocks is never called itself, so its first block."""
    if isinstance(module, torch.nn.ModuleList):
        if len(module) == 0:
            raise HarnessError("the site is an empty ModuleList")
        return module[0]
    return module


def _padding(model, pad):
    """The pad id and vocabulary a corrupted text input is drawn with ({} for a subject without padding)."""
    return {} if pad is None else {"pad": pad, "vocab": model.get_input_embeddings().num_embeddings}


def _drawn(params, shape, dtype, device, ctx_inputs, input_spec, model, pad):
    """The seeded tensors the contract's parameters ask for (harness/benchgrid_harness/drawn.py)."""
    out = {}
    if params.get("direction_seed") is not None:
        out["direction"] = drawn.direction(params["direction_seed"], shape, dtype, device)
    if params.get("vector_seed") is not None:
        out["vector"] = drawn.vector(params["vector_seed"], shape[-1], dtype, device)
    if params.get("sae_width") is not None:
        out["sae"] = drawn.sae_weights(params.get("sae_seed", 0), shape[-1], int(params["sae_width"]), dtype, device)
    if params.get("corrupt_seed") is not None:
        out["corrupted"] = drawn.corrupted(params["corrupt_seed"], ctx_inputs, input_spec, **_padding(model, pad))
    return out


def _check_tokens(model, inputs, params):
    """Token-id and position parameters must index the logits and the sequence (a clear error, not an IndexError)."""
    named = {k: params[k] for k in ("answer_token", "wrong_token") if params.get(k) is not None}
    if named:
        with torch.no_grad():
            width = model(inputs).shape[-1]
        for key, value in named.items():
            if int(value) >= width:
                raise HarnessError(f"contract parameter {key}={value} is not a logit index (the logits have {width})")
    position = params.get("position")
    if position is not None and (inputs.dim() < 2 or int(position) >= inputs.shape[1]):
        raise HarnessError(
            f"contract parameter position={position} is outside the inputs' sequence (shape {list(inputs.shape)})"
        )


def make_context(subject, request, device, tmpdir):
    """Build the ctx; probes the site and draws the seeded tensors the contract's parameters ask for."""
    params = request["contract"]["params"]
    pad = subject_pad_id(subject.model)
    site = site_module = blocks = None
    extras = {}
    if params.get("site") is not None:
        site, site_module = resolve_site(subject.model, request["subject"]["sites"], params["site"])
        if isinstance(site_module, torch.nn.ModuleList):
            blocks = list(site_module)
        shape, dtype = probe_site(subject.model, subject.inputs, _probed(site_module), site)
        extras = _drawn(params, shape, dtype, device, subject.inputs, request["subject"]["inputs"], subject.model, pad)
    _check_tokens(subject.model, subject.inputs, params)
    return Context(
        model=subject.model,
        inputs=subject.inputs,
        batches=subject.batches,
        site=site,
        site_module=site_module,
        params=params,
        device=device,
        direction=extras.get("direction"),
        strengths=[float(s) for s in params.get("strengths", [])],
        target=int(params.get("target", 0)),
        tmpdir=tmpdir,
        final_module=find_final_module(subject.model, subject.inputs),
        blocks=blocks,
        vector=extras.get("vector"),
        corrupted=extras.get("corrupted"),
        sae=extras.get("sae"),
        pad_id=pad,
    )
