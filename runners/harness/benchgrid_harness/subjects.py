"""Build a cell's subject: a seeded model (random, or with the real weights the request names) in its dtype,
and its seeded inputs, on the device."""

import copy
import random
from dataclasses import dataclass, field

import torch
import torchvision

from . import text as text_
from . import weights as weights_
from .errors import HarnessError
from .user_model import builder_inputs, python_model, with_state_dict

_DTYPES = {
    "float32": torch.float32,
    "float64": torch.float64,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "int64": torch.int64,
}


@dataclass
class Subject:
    """The model (eval mode, on device), one input batch, and the dataset split into batches."""

    model: torch.nn.Module
    inputs: torch.Tensor
    batches: list
    # What the result records of the model: its dtype and its weights (source and digest, or None: random).
    record: dict = field(default_factory=dict)


def _torchvision_model(model_spec, _device):
    """Any torchvision.models name, randomly initialised (weights=None: nothing is downloaded); a state_dict
    file in `weights` is loaded over it."""
    model = torchvision.models.get_model(model_spec["name"], weights=None, **model_spec["config"])
    return with_state_dict(model, model_spec), None


def _logits_forward(self, input_ids):
    """The narrowed forward of a causal LM subject: token ids in, the logits tensor out (no cache). A subject of
    padded text (`_benchgrid_pad_id`) applies its padding mask, and the position ids that go with it, here, so
    that every tool calling the subject's forward gets them (text.py)."""
    pad = text_.pad_id(self)
    if pad is None:
        return self._benchgrid_native.forward(self, input_ids=input_ids, use_cache=False).logits
    mask, positions = text_.padding_mask(input_ids, pad)
    return self._benchgrid_native.forward(
        self, input_ids=input_ids, attention_mask=mask, position_ids=positions, use_cache=False
    ).logits


_LOGITS_CLASSES = {}


def _logits_class(native):
    """A subclass of the transformers class `native` whose forward is narrowed to `forward(input_ids) -> logits`.

    A subclass, not a wrapper module, so that module paths stay those of the transformers model
    (`transformer.h.1`, `model.layers.1.mlp`) and tools that recognise the architecture by class
    (TransformerLens's bridge looks through the class's bases) still do.
    """
    if native not in _LOGITS_CLASSES:
        _LOGITS_CLASSES[native] = type(
            f"{native.__name__}Logits",
            (native,),
            {"forward": _logits_forward, "_benchgrid_native": native, "__module__": __name__},
        )
    return _LOGITS_CLASSES[native]


def _causal_lm_model(model_spec, device):
    """The transformers builder: random weights from the architecture (or config_from's config.json), or the
    real ones of a save_pretrained directory or a hub id in the local cache."""
    weights = model_spec.get("weights")
    if weights is not None:
        if weights["kind"] == "state_dict":
            raise HarnessError(
                "a transformers model takes a save_pretrained directory or hf:ID as weights, not a state_dict file"
            )
        from transformers import AutoModelForCausalLM

        where = weights["path"] if weights["kind"] == "pretrained" else weights_.hub_snapshot(weights["id"])
        try:
            model = AutoModelForCausalLM.from_pretrained(where, local_files_only=True, **model_spec["config"])
        except (OSError, ValueError) as exc:
            raise HarnessError(f"cannot load the transformers model from {where}: {exc}") from exc
        model = model.to(device)
        model.__class__ = _logits_class(type(model))
        return model, None
    if model_spec.get("config_from"):
        return _causal_lm(None, model_spec["config"], device, config_from=model_spec["config_from"]), None
    return _causal_lm(model_spec["name"], model_spec["config"], device), None


def _causal_lm(architecture, config, device, init_once=True, config_from=None):
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

    if config_from is not None:
        try:
            hf_config = AutoConfig.from_pretrained(config_from, local_files_only=True, **config)
        except (OSError, ValueError) as exc:
            raise HarnessError(f"cannot read a transformers config from {config_from}: {exc}") from exc
    else:
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


def _gpt2_model(model_spec, device):
    """The `gpt2` builder of the first decoder specs: GPT-2 from transformers with the weights it always had on the
    CPU (`from_config`'s own initialisation, every parameter drawn twice)."""
    if model_spec.get("weights") is not None:
        return _causal_lm_model(model_spec, device)
    return _causal_lm("gpt2", model_spec["config"], device, init_once=False), None


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


_BUILDERS = {
    "torchvision": _torchvision_model,
    "gpt2": _gpt2_model,
    "transformers": _causal_lm_model,
    "python": python_model,
}


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


def reinitialise(model, paths):
    """Calls each named module's own reset_parameters(), in order, drawing from torch's generator right after
    the seeded build (so every process gets the same weights): for architectures whose initialisation zeroes
    a layer, torchvision's ViT its classification head, whose logits are then 0 whatever the input, so that no
    write could move them and no agreement would mean anything."""
    modules = dict(model.named_modules())
    for path in paths:
        module = modules.get(path)
        if module is None:
            near = ", ".join(sorted(p for p in modules if p and path.split(".")[-1] in p)[:5]) or "see validate --probe"
            raise HarnessError(
                f"model.reinit names {path}, which is not a module of this model (modules like it: {near})"
            )
        if not callable(getattr(module, "reset_parameters", None)):
            raise HarnessError(
                f"model.reinit names {path}, a {type(module).__name__}, which has no reset_parameters() to re-initialise it"
            )
        module.reset_parameters()


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
    model, returned = _BUILDERS[model_spec["builder"]](dict(model_spec, config=dict(model_spec["config"])), device)
    reinitialise(model, model_spec.get("reinit") or [])
    # The model's dtype: the request's, else (requests of the first format) a floating inputs dtype.
    dtype_name = model_spec.get("dtype") or input_spec.get("dtype") or "float32"
    if dtype_name not in ("float32", "float64", "float16", "bfloat16"):
        dtype_name = "float32"
    dtype = _DTYPES[dtype_name]
    tokens = None
    if input_spec["kind"] == "text":
        if getattr(type(model), "_benchgrid_native", None) is None:
            raise HarnessError("inputs.kind text takes a transformers causal LM (builder transformers or gpt2)")
        inputs, batches, pad, tokens = text_.tokenize(
            input_spec, model_spec, model.get_input_embeddings().num_embeddings
        )
        # An instance attribute (read by text.pad_id), not a buffer: it is no tensor, follows copies of the
        # subject (TransformerLens's deep copy included), and the forward reads it on every call.
        model.__dict__["_benchgrid_pad_id"] = pad
    elif input_spec["kind"] == "builder":
        if returned is None:
            raise HarnessError(
                f"inputs.kind is builder, but {model_spec['name']} returned the module alone; return (module, inputs)"
            )
        inputs, batches = builder_inputs(returned, model_spec["name"])
    else:
        if returned is not None:
            raise HarnessError(
                f"{model_spec['name']} returned inputs beside the module; set inputs.kind: builder to use them"
            )
        inputs, batches = _make_inputs(input_spec)
    model = model.to(dtype=dtype)

    # Floating inputs follow the model's dtype; token ids (and any integer input) stay as they are.
    def cast(t):
        return t.to(dtype) if t.is_floating_point() else t

    inputs, batches = cast(inputs), [cast(b) for b in batches]
    model = model.to(device).eval()
    record = {"dtype": dtype_name, "weights": weights_.describe(model_spec.get("weights"))}
    if tokens is not None:
        record["tokens"] = tokens
    return Subject(model=model, inputs=inputs.to(device), batches=[b.to(device) for b in batches], record=record)
