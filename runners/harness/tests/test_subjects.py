"""subjects.py and weights.py: a model of the user's own is called with its config, its returned inputs are
used, a state_dict is loaded strictly, the model and its floating inputs take the request's dtype, and the
digest covers exactly the bytes loaded."""

import hashlib
import os
import unittest

import torch

from benchgrid_harness import subjects, weights
from benchgrid_harness.errors import HarnessError
from fakes import scratch_folder

MODEL_FILE = """
import torch
from torch import nn

def build(width=4):
    return nn.Sequential(nn.Linear(3, width), nn.ReLU(), nn.Linear(width, 2))

def with_inputs(width=4):
    return build(width), torch.randn(2, 3)

def not_a_module():
    return "a string"
"""


class Unpicklable:
    """A class of this module: torch.load(weights_only=True) refuses to build it, as any code in a pickle."""


class UserModelTest(unittest.TestCase):
    def setUp(self):
        self.folder = scratch_folder(self, "benchgrid-subjects-test-")
        self.file = os.path.join(self.folder, "net.py")
        with open(self.file, "w", encoding="utf-8") as f:
            f.write(MODEL_FILE)

    def subject(self, function="build", config=None, inputs=None, **model):
        spec = {
            "builder": "python",
            "name": f"net.py:{function}",
            "seed": 0,
            "config": config or {},
            "source": {"file": self.file, "module": None, "function": function},
            **model,
        }
        return {
            "id": "s",
            "model": spec,
            "sites": {},
            "inputs": inputs
            or {"kind": "image", "shape": [2, 3], "dtype": "float32", "seed": 0, "stimuli": 4, "batch_size": 2},
        }

    def test_calls_the_function_with_its_config_and_seeds_it(self):
        a = subjects.build_subject(self.subject(config={"width": 7}), torch.device("cpu"))
        b = subjects.build_subject(self.subject(config={"width": 7}), torch.device("cpu"))
        self.assertEqual(a.model[0].out_features, 7)
        self.assertTrue(torch.equal(a.model[0].weight, b.model[0].weight), "the same seed builds the same model")
        self.assertEqual(a.record, {"dtype": "float32", "weights": None})

    def test_uses_the_inputs_it_returns_only_when_asked(self):
        built = subjects.build_subject(
            self.subject("with_inputs", inputs={"kind": "builder", "seed": 0}), torch.device("cpu")
        )
        self.assertEqual(list(built.inputs.shape), [2, 3])
        self.assertEqual(len(built.batches), 1)
        with self.assertRaisesRegex(HarnessError, "set inputs.kind: builder"):
            subjects.build_subject(self.subject("with_inputs"), torch.device("cpu"))
        with self.assertRaisesRegex(HarnessError, "returned the module alone"):
            subjects.build_subject(self.subject("build", inputs={"kind": "builder", "seed": 0}), torch.device("cpu"))
        with self.assertRaisesRegex(HarnessError, "not a torch.nn.Module"):
            subjects.build_subject(self.subject("not_a_module"), torch.device("cpu"))

    def test_casts_the_model_and_floating_inputs_to_its_dtype(self):
        built = subjects.build_subject(self.subject(dtype="bfloat16"), torch.device("cpu"))
        self.assertEqual(built.model[0].weight.dtype, torch.bfloat16)
        self.assertEqual(built.inputs.dtype, torch.bfloat16)
        self.assertEqual(built.record["dtype"], "bfloat16")

    def test_loads_a_state_dict_strictly_and_records_its_digest(self):
        torch.manual_seed(99)
        saved = subjects.build_subject(self.subject(), torch.device("cpu")).model
        torch.manual_seed(99)
        state = type(saved)(*[m for m in saved]).state_dict()
        path = os.path.join(self.folder, "net.pt")
        torch.save(state, path)
        built = subjects.build_subject(self.subject(weights={"kind": "state_dict", "path": path}), torch.device("cpu"))
        self.assertTrue(torch.equal(built.model[0].weight, state["0.weight"]))
        with open(path, "rb") as f:
            digest = hashlib.sha256(b"\0" + f.read() + b"\0").hexdigest()
        self.assertEqual(built.record["weights"], {"kind": "state_dict", "source": path, "sha256": "sha256:" + digest})
        wrong = os.path.join(self.folder, "wrong.pt")
        torch.save({"0.weight": state["0.weight"], "extra": torch.zeros(1)}, wrong)
        with self.assertRaisesRegex(
            HarnessError, "does not fit the model: missing 0.bias, 2.weight, 2.bias; unexpected extra"
        ):
            subjects.build_subject(self.subject(weights={"kind": "state_dict", "path": wrong}), torch.device("cpu"))

    def test_refuses_a_pickle_that_is_not_a_state_dict(self):
        path = os.path.join(self.folder, "evil.pt")
        torch.save({"x": Unpicklable()}, path)
        with self.assertRaisesRegex(HarnessError, "not a state_dict torch.load can read safely"):
            weights.read_state_dict(path)


class ReinitTest(unittest.TestCase):
    """model.reinit: torchvision zeroes ViT's head, so its logits are 0 whatever the input until it is re-initialised."""

    def subject(self, reinit):
        return {
            "id": "vit",
            "sites": {},
            "model": {
                "builder": "torchvision",
                "name": "vit_b_16",
                "seed": 0,
                "config": {"image_size": 32},
                "reinit": reinit,
            },
            "inputs": {"kind": "image", "shape": [2, 3, 32, 32], "seed": 0, "stimuli": 2, "batch_size": 2},
        }

    def logits(self, reinit):
        s = subjects.build_subject(self.subject(reinit), torch.device("cpu"))
        with torch.no_grad():
            return s.model(s.inputs[0] if isinstance(s.inputs, (list, tuple)) else s.inputs)

    def test_a_zeroed_head_gives_zero_logits_and_its_own_reset_gives_it_weights_the_same_in_every_build(self):
        self.assertEqual(self.logits([]).abs().max().item(), 0.0)
        first, again = self.logits(["heads.head"]), self.logits(["heads.head"])
        self.assertGreater(first.abs().max().item(), 0.0)
        self.assertTrue(torch.equal(first, again))

    def test_a_path_that_is_no_module_or_has_no_reset_is_refused(self):
        with self.assertRaisesRegex(HarnessError, "heads.nope, which is not a module"):
            self.logits(["heads.nope"])
        with self.assertRaisesRegex(HarnessError, "has no reset_parameters"):
            self.logits(["heads"])


if __name__ == "__main__":
    unittest.main()
