"""The `ctx` handed to adapters: subject, resolved site, steering direction and scratch space."""

from dataclasses import dataclass, field

import torch

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


def make_context(subject, request, device, tmpdir):
    """Build the ctx; probes the site and draws the direction from its own seeded generator."""
    params = request["contract"]["params"]
    site = site_module = direction = None
    if params.get("site") is not None:
        site, site_module = resolve_site(subject.model, request["subject"]["sites"], params["site"])
        shape, dtype = probe_site(subject.model, subject.inputs, site_module, site)
        if params.get("direction_seed") is not None:
            generator = torch.Generator().manual_seed(int(params["direction_seed"]))
            direction = torch.randn(shape, generator=generator, dtype=torch.float32).to(device=device, dtype=dtype)
    return Context(model=subject.model, inputs=subject.inputs, batches=subject.batches, site=site,
                   site_module=site_module, params=params, device=device, direction=direction,
                   strengths=[float(s) for s in params.get("strengths", [])],
                   target=int(params.get("target", 0)), tmpdir=tmpdir,
                   final_module=find_final_module(subject.model, subject.inputs))
