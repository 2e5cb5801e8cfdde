"""result.py: the result object has every field of schemas/result.schema.json and is written once,
atomically: a reader sees the old file or the whole new one, never half, and a failed write leaves nothing.
(The full schema check of written results is test/harness/result-schema.test.ts: this Python has no
JSON Schema validator.)"""

import json
import math
import os
import unittest
from unittest import mock

from benchgrid_harness import WIRE_VERSION, result
from fakes import scratch_folder

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "schemas", "result.schema.json")
ENVIRONMENT = {"hostname": "h", "device": "cpu"}
VERSIONS = {"python": "3.11", "torch": "2", "torchvision": "0", "numpy": None, "library": None}


def built(outcome):
    return result.build(outcome, "A/c/t/s", 2, "time", VERSIONS, ENVIRONMENT, {"build": 0.5})


def raised(exc):
    """`exc` with the traceback it gets when raised two calls deep."""

    def inner():
        raise exc

    def outer():
        inner()

    try:
        outer()
    except type(exc) as caught:
        return caught


class BuildTest(unittest.TestCase):
    def test_a_result_has_exactly_the_schemas_fields(self):
        with open(SCHEMA, encoding="utf-8") as f:
            schema = json.load(f)
        fields = set(built({"status": "ok"}))
        self.assertEqual(fields, set(schema["properties"]))
        self.assertLessEqual(set(schema["required"]), fields)

    def test_what_the_outcome_does_not_say_is_null_and_notes_an_empty_list(self):
        out = built({"status": "unsupported", "reason": "no hooks"})
        self.assertEqual(out["protocol"], WIRE_VERSION)
        self.assertEqual((out["cell_id"], out["process_index"], out["mode"]), ("A/c/t/s", 2, "time"))
        self.assertEqual((out["status"], out["reason"]), ("unsupported", "no hooks"))
        for field in ("error", "timing", "exact", "memory", "work", "paired"):
            self.assertIsNone(out[field], field)
        self.assertEqual(out["notes"], [])
        self.assertEqual(
            (out["versions"], out["environment"], out["phases_s"]), (VERSIONS, ENVIRONMENT, {"build": 0.5})
        )

    def test_the_outcomes_measurements_are_carried_as_they_are(self):
        outcome = {
            "status": "ok",
            "timing": {"samples_ms": [1.0]},
            "exact": {"verdict": "exact"},
            "memory": None,
            "work": {"witnesses": {}},
            "notes": ["a note"],
            "paired": {"seed": 1},
        }
        out = built(outcome)
        for field in ("timing", "exact", "work", "notes", "paired"):
            self.assertEqual(out[field], outcome[field], field)

    def test_an_error_names_its_class_message_and_the_end_of_its_traceback(self):
        error = result.error_object(raised(ValueError("the tool's own message")))
        self.assertEqual((error["type"], error["message"]), ("ValueError", "the tool's own message"))
        self.assertIn("in inner", error["traceback_tail"])
        self.assertTrue(error["traceback_tail"].endswith("ValueError: the tool's own message"))

    def test_a_long_traceback_is_cut_to_its_last_lines(self):
        message = "\n".join(f"line {i}" for i in range(30))
        tail = result.error_object(raised(RuntimeError(message)))["traceback_tail"].splitlines()
        self.assertEqual(tail, [f"line {i}" for i in range(30 - result.TRACEBACK_LINES, 30)])


class WriteTest(unittest.TestCase):
    def setUp(self):
        self.folder = scratch_folder(self)
        self.path = os.path.join(self.folder, "RES.json")

    def test_the_file_is_the_result_as_sorted_json_and_nothing_else_is_left(self):
        out = built({"status": "ok", "timing": {"samples_ms": [1.25, 2.5]}})
        result.write_atomically(self.path, out)
        with open(self.path, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(json.loads(text), out)
        self.assertTrue(text.endswith("}\n"))
        self.assertEqual(list(json.loads(text)), sorted(out))
        self.assertEqual(os.listdir(self.folder), ["RES.json"])

    def test_the_data_reaches_the_disk_before_the_file_takes_the_results_name(self):
        order = []
        with (
            mock.patch.object(result.os, "fsync", side_effect=lambda fd: order.append("fsync")),
            mock.patch.object(result.os, "replace", side_effect=lambda a, b: order.append(("replace", a, b))),
        ):
            result.write_atomically(self.path, built({"status": "ok"}))
        self.assertEqual(order[0], "fsync")
        self.assertEqual(order[1][0], "replace")
        self.assertEqual(
            (os.path.dirname(order[1][1]), order[1][2]),
            (self.folder, self.path),
            "the temporary file is beside the result",
        )

    def test_a_result_json_cannot_say_is_refused_and_the_previous_file_is_kept(self):
        result.write_atomically(self.path, built({"status": "ok"}))
        for bad in (math.nan, math.inf):
            with self.subTest(value=bad), self.assertRaises(ValueError):
                result.write_atomically(self.path, built({"status": "ok", "timing": {"samples_ms": [bad]}}))
        with open(self.path, encoding="utf-8") as f:
            self.assertEqual(json.load(f)["timing"], None)
        self.assertEqual(os.listdir(self.folder), ["RES.json"])

    def test_a_write_that_fails_midway_leaves_the_old_file_whole_and_no_temporary_file(self):
        result.write_atomically(self.path, built({"status": "unsupported", "reason": "first"}))
        with mock.patch.object(result.os, "replace", side_effect=OSError("disk gone")), self.assertRaises(OSError):
            result.write_atomically(self.path, built({"status": "ok"}))
        with open(self.path, encoding="utf-8") as f:
            self.assertEqual(json.load(f)["reason"], "first")
        self.assertEqual(os.listdir(self.folder), ["RES.json"])

    def test_a_folder_that_does_not_exist_is_an_error(self):
        with self.assertRaises(OSError):
            result.write_atomically(os.path.join(self.folder, "missing", "RES.json"), built({"status": "ok"}))


if __name__ == "__main__":
    unittest.main()
