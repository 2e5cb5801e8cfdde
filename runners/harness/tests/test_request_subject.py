"""request_subject.py, through load_request: the model's optional fields and the inputs are refused when
broken, with a line that names the field, and inputs too large to generate are refused before torch allocates."""

import unittest

from benchgrid_harness import request as request_module
from fakes import request
from request_files import RequestFileTest, drop, put


class SubjectRequestTest(RequestFileTest):
    def test_a_model_of_ones_own_with_weights_and_a_dtype_loads_and_its_fields_are_checked(self):
        req = request()
        req["subject"]["model"].update(
            builder="python",
            name="models/net.py:build",
            dtype="bfloat16",
            config_from=None,
            source={"file": "/specs/models/net.py", "module": None, "function": "build"},
            weights={"kind": "state_dict", "path": "/specs/net.pt"},
        )
        self.assertEqual(request_module.load_request(self.write(req)), req)
        req["subject"]["inputs"] = {"kind": "builder", "seed": 0}
        self.assertEqual(request_module.load_request(self.write(req)), req, "builder inputs need no shape")
        cases = [
            ("subject.model.dtype", "int8", "expected one of float32"),
            ("subject.model.source", None, "the python builder needs {file, module, function}"),
            (
                "subject.model.source",
                {"file": "a.py", "module": "a", "function": "build"},
                "a file (a path) or a module",
            ),
            (
                "subject.model.source",
                {"file": None, "module": "a;b", "function": "build"},
                "a file (a path) or a module",
            ),
            (
                "subject.model.source",
                {"file": "a.py", "module": None, "function": "os.system"},
                "expected a Python name",
            ),
            ("subject.model.weights", {"kind": "url", "path": "http://x"}, "kind state_dict, pretrained or hub"),
            ("subject.model.weights", {"kind": "hub", "id": "../../etc"}, "expected a hub id"),
            ("subject.model.weights", {"kind": "pretrained", "path": ""}, "expected a path"),
            ("subject.model.reinit", "heads.head", "expected a list of module paths"),
            ("subject.model.reinit", ["heads.head; rm"], "expected a list of module paths"),
        ]
        for path, value, expected in cases:
            with self.subTest(path=path, value=value):
                req = request()
                req["subject"]["model"].update(
                    builder="python", source={"file": "net.py", "module": None, "function": "build"}
                )
                put(req, path, value)
                lines = self.problems(req)
                self.assertTrue(any(expected in line for line in lines), f"{path} = {value!r}: {lines}")

    def test_reinit_loads_for_random_weights_and_is_refused_over_real_ones(self):
        req = request()
        req["subject"]["model"]["reinit"] = ["heads.head", "features.0"]
        self.assertEqual(request_module.load_request(self.write(req)), req)
        req["subject"]["model"]["weights"] = {"kind": "state_dict", "path": "/specs/net.pt"}
        self.assertTrue(any("would overwrite the real weights" in line for line in self.problems(req)))

    def test_generated_inputs_still_need_their_shape_and_sizes(self):
        for key in ("shape", "stimuli", "batch_size"):
            with self.subTest(key=key):
                req = request()
                drop(req, f"subject.inputs.{key}")
                self.assertTrue(
                    any(line.strip().startswith(f"subject.inputs.{key}: missing") for line in self.problems(req))
                )

    def test_inputs_too_large_to_generate_are_refused_before_torch_allocates_them(self):
        # Each dimension is in range, but the batch is 2**34 elements (64 GiB of float32).
        req = request()
        put(req, "subject.inputs.shape", [1024, 1024, 16384])
        put(req, "subject.inputs.stimuli", 1)
        self.assertTrue(
            any(
                line.strip().startswith("subject.inputs.shape: [1024, 1024, 16384] is 17,179,869,184 elements")
                for line in self.problems(req)
            ),
            self.problems(req),
        )
        # A small batch, but a million stimuli of it: the dataset is what would not fit.
        put(req, "subject.inputs.shape", [1, 3, 224, 224])
        put(req, "subject.inputs.stimuli", 1_000_000)
        lines = self.problems(req)
        self.assertTrue(
            any(
                line.strip().startswith("subject.inputs.stimuli: 1,000,000 stimuli of shape [3, 224, 224]")
                for line in lines
            ),
            lines,
        )
        # 2**31 elements exactly is the largest accepted batch and dataset.
        put(req, "subject.inputs.shape", [2, 2**30])
        put(req, "subject.inputs.stimuli", 2)
        self.assertEqual(request_module.load_request(self.write(req))["subject"]["inputs"]["shape"], [2, 2**30])

    def test_inputs_need_their_kinds_own_fields(self):
        self.refuses("subject.inputs.dtype", "int8", "expected one of float32")
        req = request()
        put(req, "subject.inputs", {"kind": "tokens", "shape": [1, 8], "seed": 0, "stimuli": 1, "batch_size": 1})
        self.assertIn(
            "subject.inputs.vocab: expected a positive integer for tokens (got None)",
            [line.strip() for line in self.problems(req)],
        )
        put(req, "subject.inputs.vocab", 50257)
        self.assertEqual(request_module.load_request(self.write(req)), req)


if __name__ == "__main__":
    unittest.main()
