"""Plain forwards, the floor of logit_lens and the ablations: the model's own forward with nothing attached (the
lens's norm and unembedding calls and the ablations' edits are the work every tool adds to it)."""

from .raw import single_module_output

# One forward, nothing read or edited. mean_ablation's dataset forwards run in prepare, untimed, for every tool.
logit_lens = zero_ablation = mean_ablation = head_ablation = single_module_output
