"""Build a cell's subject: a seeded, randomly initialised model and its seeded inputs, on the device."""

import copy
import random
from dataclasses import dataclass

import torch
import torchvision

from .errors import HarnessError

_DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
           "bfloat16": torch.bfloat16, "int64": torch.int64}


@dataclass
class Subject:
    """The model (eval mode, on device), one input batch, and the dataset split into batches."""

    model: torch.nn.Module
    inputs: torch.Tensor
    batches: list


def _torchvision_model(name, config, _device):
    """Any torchvision.models name, randomly initialised (weights=None: nothing is downloaded)."""
    return torchvision.models.get_model(name, weights=None, **config)


def _logits_forward(self, input_ids):
    """The narrowed forward of a causal LM subject: token ids in, the logits tensor out (no cache)."""
    return self._benchgrid_native.forward(self, input_ids=input_ids, use_cache=False).logits


_LOGITS_CLASSES = {}


def _logits_class(native):
    """A subclass of the transformers class `native` whose forward is narrowed to `forward(input_ids) -> logits`.

    A subclass, not a wrapper module, so that module paths stay those of the transformers model
    (`transformer.h.1`, `model.layers.1.mlp`) and tools that recognise the architecture by class
    (TransformerLens's bridge looks through the class's bases) still do.
    """
    if native not in _LOGITS_CLASSES:
        _LOGITS_CLASSES[native] = type(f"{native.__name__}Logits", (native,),
                                       {"forward": _logits_forward, "_benchgrid_native": native,
                                        "__module__": __name__})
    return _LOGITS_CLASSES[native]


def _causal_lm(architecture, config, device, init_once=True):
    """transformers' causal LM of `architecture` (a config model_type: gpt2, llama, gpt_neox, ...) from
    `AutoConfig.for_model(architecture, **config)`, randomly initialised (nothing is downloaded).

    With `init_once`, every parameter is drawn once: construction runs under transformers'
    `initialization.no_init_weights()` (which skips both torch's in-constructor initialisation and
    transformers' `init_weights`), then `model.init_weights()` initialises the whole model the way
    `from_config` would have finished. That halves the build of a 100M-parameter model on one CPU thread; the
    weights differ from a plain `from_config`'s, which draws every parameter twice.
    """
    # Imported lazily: only decoder subjects need transformers, and it is slow to import.
    from transformers import AutoConfig, AutoModelForCausalLM
    from transformers.initialization import no_init_weights

    try:
        hf_config = AutoConfig.for_model(architecture, **config)
    except ValueError as exc:
        raise HarnessError(f"transformers has no architecture {architecture!r}: {exc}") from exc
    # Built directly on the device: on a GPU the random initialisation of a billion parameters takes a fraction of
    # a second there and half a minute on one CPU thread. The weights come from the device's generator (seeded by
    # torch.manual_seed like the CPU's), so they are the same in every process on that device.
    with torch.device(device):
        if init_once:
            with no_init_weights():
                model = AutoModelForCausalLM.from_config(hf_config)
            model.init_weights()
        else:
            model = AutoModelForCausalLM.from_config(hf_config)
    model.__class__ = _logits_class(type(model))
    return model


def _gpt2_model(_name, config, device):
    """The `gpt2` builder of the first decoder specs: GPT-2 from transformers with the weights it always had on the
    CPU (`from_config`'s own initialisation, every parameter drawn twice)."""
    return _causal_lm("gpt2", config, device, init_once=False)


def native_model(model):
    """The subject as its library built it: for a causal LM, a view of the same modules and parameters whose
    forward is transformers' own (keyword arguments, a ModelOutput, `generate`); any other model as it is.

    The view is a shallow copy with the transformers class: its submodules, parameters, buffers, hooks and
    config are the subject's own objects, so whatever a tool does through it happens to the subject.
    """
    native = getattr(type(model), "_benchgrid_native", None)
    if native is None:
        return model
    view = copy.copy(model)
    view.__class__ = native
    return view


_BUILDERS = {"torchvision": _torchvision_model, "gpt2": _gpt2_model, "transformers": _causal_lm}


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
    model = _BUILDERS[model_spec["builder"]](model_spec["name"], dict(model_spec["config"]), device)
    dtype = _DTYPES[input_spec.get("dtype", "int64" if input_spec["kind"] == "tokens" else "float32")]
    inputs, batches = _make_inputs(input_spec)
    if dtype.is_floating_point:
        model = model.to(dtype=dtype)
        inputs, batches = inputs.to(dtype), [b.to(dtype) for b in batches]
    model = model.to(device).eval()
    return Subject(model=model, inputs=inputs.to(device), batches=[b.to(device) for b in batches])
