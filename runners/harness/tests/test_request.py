"""request.py: a request file is hostile until load_request has checked it. Every field the harness reads
is refused when missing or of the wrong kind, with a line that names it, and every problem is listed."""

import json
import os
import tempfile
import unittest

from benchgrid_harness import WIRE_VERSION, request as request_module
from benchgrid_harness.errors import RequestError
from fakes import request, settings
from request_files import RequestFileTest, drop, put

PAIRING = {"baseline": {"tool": "raw", "module": "benchgrid_torch.raw"}, "seed": 11, "before": 3}


class LoadRequestTest(RequestFileTest):
    def test_a_well_formed_request_loads_as_written(self):
        for pairing in (None, PAIRING):
            req = request(pairing=pairing)
            self.assertEqual(request_module.load_request(self.write(req)), req)
        req = request()
        del req["pairing"]
        self.assertEqual(request_module.load_request(self.write(req)), req, "pairing may be absent")

    def test_an_unreadable_file_or_not_an_object_is_refused_naming_the_file(self):
        missing = os.path.join(self.folder, "nowhere.json")
        with self.assertRaisesRegex(RequestError, "cannot read request .*nowhere.json"):
            request_module.load_request(missing)
        self.assertRegex(self.problems(text="{not json")[0], "cannot read request .*REQ.json")
        self.assertRegex(self.problems(text="")[0], "cannot read request")
        for value in ([], "a request", 1, None):
            self.assertRegex(self.problems(value)[0], "REQ.json: expected a JSON object")

    def test_every_field_the_harness_reads_is_refused_when_missing(self):
        for path, _, expected in request_module._RULES:
            with self.subTest(path=path):
                req = request()
                drop(req, path)
                self.assertIn(f"{path}: missing (expected {expected})", [line.strip() for line in self.problems(req)])

    def test_every_problem_is_listed_not_just_the_first(self):
        req = request()
        drop(req, "cell.id")
        put(req, "device", "tpu")
        put(req, "settings.samples", 0)
        lines = [line.strip() for line in self.problems(req)[1:]]
        self.assertEqual([line.split(":")[0] for line in lines], ["cell.id", "device", "settings.samples"])

    def test_another_wire_version_is_refused(self):
        self.assertRegex(
            self.problems(request(protocol=WIRE_VERSION + 1))[0], f"is not a wire-version-{WIRE_VERSION} request"
        )
        for version in (
            WIRE_VERSION + 1,
            WIRE_VERSION - 1,
            str(WIRE_VERSION),
            float(WIRE_VERSION) + 0.5,
            True,
            None,
            [WIRE_VERSION],
        ):
            with self.subTest(version=version):
                self.refuses("protocol", version, f"expected {WIRE_VERSION}")

    def test_wrong_types_are_refused(self):
        cases = [
            ("cell.id", "", "a non-empty string"),
            ("cell.id", 7, "a non-empty string"),
            ("contract.kind", "Single-Module", "lower_snake_case"),
            ("contract.kind", None, "lower_snake_case"),
            ("contract.params", [], "an object"),
            ("contract.grad", "yes", "true or false"),
            ("contract.grad", 1, "true or false"),
            ("contract.work", {"forwards": 1}, "null or {forwards, parameter_grads}"),
            ("subject.model.builder", "timm", '"torchvision"'),
            ("subject.model.seed", "0", "an integer"),
            ("subject.model.seed", True, "an integer"),
            ("subject.model.seed", 1.5, "an integer"),
            ("subject.model.seed", -1, "an integer from 0"),
            ("subject.inputs.kind", "audio", '"image", "tokens", "builder" or "text"'),
            ("subject.inputs.shape", [], "a list of 1 to 8 positive integers"),
            ("subject.inputs.shape", [1, 0, 3], "a list of 1 to 8"),
            ("subject.inputs.shape", [1, "3"], "a list of 1 to 8"),
            ("subject.inputs.shape", "1x3", "a list of 1 to 8"),
            ("subject.inputs.stimuli", 0, "an integer from 1"),
            ("subject.inputs.batch_size", False, "an integer from 1"),
            ("subject.sites", ["layer1"], "an object"),
            ("tool.module", "", "a module path"),
            ("tool.library", "", "a distribution name or null"),
            ("reference", {"tool": "raw"}, "null or {tool, module}"),
            ("reference", "raw", "null or {tool, module}"),
            ("device", "tpu", '"cpu", "cuda" or "cuda:N"'),
            ("device", "cuda:x", '"cpu", "cuda" or "cuda:N"'),
            ("device", "cpu ", '"cpu"'),
            ("mode", "wall", '"time" or "memory"'),
            ("process_index", -1, "a non-negative integer"),
            ("process_index", 0.0, "a non-negative integer"),
            ("settings.warmups", -1, "an integer from 0"),
            ("settings.samples", 0, "an integer from 1"),
            ("settings.samples", 20.0, "an integer from 1"),
            ("settings.samples", "20", "an integer from 1"),
            ("settings.min_samples", True, "an integer from 1"),
            ("settings.sampling_budget_s", -0.5, "a number of seconds"),
            ("settings.sampling_budget_s", "10", "a number of seconds"),
            ("settings.threads", 0, "an integer from 1"),
            ("settings.rtol", -1e-5, "a non-negative finite number"),
            ("settings.atol", None, "a non-negative finite number"),
            ("settings.memory_calls", 0, "an integer from 1"),
        ]
        for path, value, expected in cases:
            with self.subTest(path=path, value=value):
                self.refuses(path, value, expected)

    def test_huge_and_non_finite_numbers_are_refused_before_anything_is_allocated(self):
        cases = [
            ("settings.samples", 10**12, "an integer from 1 to 100000"),
            ("settings.samples", 100_001, "to 100000"),
            ("settings.min_samples", 10**9, "to 100000"),
            ("settings.warmups", 10**9, "an integer from 0 to 10000"),
            ("settings.memory_calls", 10**15, "to 100000"),
            ("settings.threads", 10**6, "an integer from 1 to 1024"),
            ("settings.sampling_budget_s", 1e300, "from 0 to 86400"),
            ("subject.model.seed", 2**64, "to 2**64 - 1"),
            ("subject.inputs.shape", [1] * 9, "a list of 1 to 8 positive integers"),
            ("subject.inputs.shape", [1, 2**31 + 1], "a list of 1 to 8 positive integers"),
            ("subject.inputs.stimuli", 10**7, "an integer from 1 to 1000000"),
            ("subject.inputs.batch_size", 10**7, "an integer from 1 to 1000000"),
        ]
        for path, value, expected in cases:
            with self.subTest(path=path, value=value):
                self.refuses(path, value, expected)
        # JSON itself can say infinity and NaN (Python's json reads 1e999 as inf): no setting is either.
        for field in ("sampling_budget_s", "rtol", "atol", "precision"):
            for literal in ("1e999", "-1e999", "NaN"):
                with self.subTest(field=field, literal=literal):
                    text = json.dumps(request(settings=settings(**{field: 12345.5}))).replace("12345.5", literal)
                    lines = self.problems(text=text)
                    self.assertTrue(any(line.strip().startswith(f"settings.{field}:") for line in lines), lines)
        # An integer too long for Python to read is a request that cannot be read, not a crash.
        self.assertRegex(
            self.problems(text=json.dumps(request()).replace('"samples": 20', '"samples": ' + "9" * 5000))[0],
            "cannot read request",
        )

    def test_the_largest_accepted_values_load(self):
        req = request(
            settings=settings(
                samples=100_000,
                min_samples=100_000,
                warmups=10_000,
                threads=1024,
                memory_calls=100_000,
                sampling_budget_s=86_400,
            )
        )
        put(req, "subject.model.seed", 2**64 - 1)
        self.assertEqual(request_module.load_request(self.write(req)), req)

    def test_settings_that_contradict_each_other_are_refused(self):
        lines = self.problems(request(settings=settings(samples=5, min_samples=6)))
        self.assertIn(
            "settings.min_samples: must not exceed settings.samples (got 6 > 5)", [line.strip() for line in lines]
        )
        for precision in (0, 1, -0.1, 1.5, "0.05", True):
            with self.subTest(precision=precision):
                self.refuses("settings.precision", precision, "null or a number between 0 and 1")

    def test_a_reduced_precision_subjects_float32_tolerance_loads_and_a_broken_one_is_refused(self):
        req = request()
        put(req, "settings.float32_tolerance", {"rtol": 1e-5, "atol": 1e-6})
        self.assertEqual(request_module.load_request(self.write(req)), req)
        for tolerance in ({}, {"rtol": 1e-5}, {"rtol": -1, "atol": 0}, {"rtol": "1e-5", "atol": 0}, [1e-5, 1e-6]):
            with self.subTest(tolerance=tolerance):
                self.refuses("settings.float32_tolerance", tolerance, "expected absent or {rtol, atol}")

    def test_a_cell_id_must_be_made_of_its_parts(self):
        self.refuses("cell.id", "A/other/hooks/tiny", "must be group/contract/tool/subject")

    def test_a_broken_pairing_is_refused(self):
        broken = [
            {},
            [],
            "raw",
            {**PAIRING, "seed": -1},
            {**PAIRING, "seed": "11"},
            {**PAIRING, "before": 0},
            {**PAIRING, "before": 10**9},
            {**PAIRING, "before": True},
            {**PAIRING, "baseline": {"tool": "raw"}},
            {**PAIRING, "baseline": {"tool": "", "module": "m"}},
            {"baseline": PAIRING["baseline"], "seed": 1},
        ]
        for pairing in broken:
            with self.subTest(pairing=pairing):
                lines = self.problems(request(pairing=pairing))
                self.assertTrue(any(line.strip().startswith("pairing: expected null or") for line in lines), lines)


class PeekTest(unittest.TestCase):
    """What the error result of a request that did not load can still say about its cell."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory(prefix="benchgrid-harness-test-")
        self.addCleanup(folder.cleanup)
        self.path = os.path.join(folder.name, "REQ.json")

    def peek(self, text):
        with open(self.path, "w", encoding="utf-8") as f:
            f.write(text)
        return request_module.peek(self.path)

    def test_a_broken_request_still_names_its_cell_process_and_mode(self):
        req = request(settings="not settings")
        self.assertEqual(self.peek(json.dumps(req)), ("A/single_module_output/hooks/tiny", 0, "time"))

    def test_what_peek_cannot_trust_is_left_null(self):
        self.assertEqual(self.peek("{not json"), (None, None, None))
        self.assertEqual(self.peek("[]"), (None, None, None))
        self.assertEqual(
            self.peek(json.dumps({"cell": {"id": 7}, "process_index": -3, "mode": "wall"})), (None, None, None)
        )
        self.assertEqual(
            self.peek(json.dumps({"cell": {"id": "x"}, "process_index": True, "mode": "memory"})), ("x", None, "memory")
        )


if __name__ == "__main__":
    unittest.main()
