"""sae-lens 6.54.12: a site's activation encoded by sae-lens's own `StandardSAE` class.

sae-lens's README: "SAELens inference works with any PyTorch-based model, not just TransformerLens ... SAEs can
be used with Hugging Face Transformers, NNsight, or any other framework by extracting activations and passing
them to the SAE's `encode()`". So the activation is extracted the Hugging Face way (a forward hook on the site
module, removed after the call) and encoded with `sae.encode(activation)`. The SAE is a `StandardSAE` built
from `StandardSAEConfig(d_in, d_sae)` with the harness's seeded weights loaded by `load_state_dict`, so its
encoder is the one every tool of the row computes: relu((x - b_dec) @ W_enc + b_enc). sae-lens needs
transformer-lens < 4, so it runs in its own environment (transformer-lens 3.9.0 beside the decoders' 4.3.0).
"""

from sae_lens import StandardSAE, StandardSAEConfig

from benchgrid_torch import decoders

_DTYPE_NAMES = {
    "torch.float32": "float32",
    "torch.float16": "float16",
    "torch.bfloat16": "bfloat16",
    "torch.float64": "float64",
}


def _sae(ctx):
    """A StandardSAE with the harness's weights, on the subject's device and in the site's dtype."""
    weights = ctx.sae
    d_in, d_sae = weights["W_enc"].shape
    config = StandardSAEConfig(
        d_in=d_in, d_sae=d_sae, dtype=_DTYPE_NAMES[str(weights["W_enc"].dtype)], device=str(ctx.device)
    )
    sae = StandardSAE(config)
    sae.load_state_dict(weights)
    return sae.eval()


def sae_encode(ctx):
    """The site's output from one forward (a module hook), then `sae.encode(...)`."""
    sae, model, site, x = _sae(ctx), ctx.model, ctx.site_module, ctx.inputs

    def run():
        return sae.encode(decoders.forward_keeping(model, site, x))

    return run
