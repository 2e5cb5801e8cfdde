"""Build a cell's subject: a seeded, randomly initialised model and its seeded inputs, on the device."""

import random
from dataclasses import dataclass

import torch
import torchvision

_DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
           "bfloat16": torch.bfloat16, "int64": torch.int64}


@dataclass
class Subject:
    """The model (eval mode, on device), one input batch, and the dataset split into batches."""

    model: torch.nn.Module
    inputs: torch.Tensor
    batches: list


def _torchvision_model(name, config):
    """Any torchvision.models name, randomly initialised (weights=None: nothing is downloaded)."""
    return torchvision.models.get_model(name, weights=None, **config)


def _gpt2_model(name, config):
    """transformers' GPT2LMHeadModel from GPT2Config(**config), randomly initialised."""
    # Imported lazily: only decoder subjects need transformers, and it is slow to import.
    from transformers import GPT2Config, GPT2LMHeadModel

    class GPT2Logits(GPT2LMHeadModel):
        """GPT-2 whose forward returns the logits tensor, as every subject's forward does."""

        def forward(self, input_ids):
            return super().forward(input_ids=input_ids, use_cache=False).logits

    return GPT2Logits(GPT2Config(**config))


_BUILDERS = {"torchvision": _torchvision_model, "gpt2": _gpt2_model}


def _make_inputs(spec):
    """One batch of `shape`, then `stimuli` more samples split into `batch_size` batches, from one generator."""
    # Drawn on the CPU from an explicit generator so the values are the same whatever the device.
    generator = torch.Generator().manual_seed(spec["seed"])
    shape = list(spec["shape"])
    dataset_shape = [spec["stimuli"]] + shape[1:]
    if spec["kind"] == "tokens":
        inputs = torch.randint(0, spec["vocab"], shape, generator=generator, dtype=torch.int64)
        dataset = torch.randint(0, spec["vocab"], dataset_shape, generator=generator, dtype=torch.int64)
    else:
        inputs = torch.randn(shape, generator=generator, dtype=torch.float32)
        dataset = torch.randn(dataset_shape, generator=generator, dtype=torch.float32)
    return inputs, list(torch.split(dataset, spec["batch_size"]))


def build_subject(subject_spec, device):
    """Seed, build, move to `device` and put in eval mode; inputs are drawn from their own seed."""
    model_spec, input_spec = subject_spec["model"], subject_spec["inputs"]
    seed = model_spec["seed"]
    # Construction draws from torch's global generator; Python's and NumPy's are seeded too so that a tool
    # drawing from them behaves the same in every process.
    torch.manual_seed(seed)
    random.seed(seed)
    try:
        import numpy

        numpy.random.seed(seed)
    except ImportError:
        pass
    model = _BUILDERS[model_spec["builder"]](model_spec["name"], dict(model_spec["config"]))
    dtype = _DTYPES[input_spec.get("dtype", "int64" if input_spec["kind"] == "tokens" else "float32")]
    inputs, batches = _make_inputs(input_spec)
    if dtype.is_floating_point:
        model = model.to(dtype=dtype)
        inputs, batches = inputs.to(dtype), [b.to(dtype) for b in batches]
    model = model.to(device).eval()
    return Subject(model=model, inputs=inputs.to(device), batches=[b.to(device) for b in batches])
