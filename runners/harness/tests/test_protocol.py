"""protocol.py: the request's settings are checked as the protocol table declares them (protocol.json, which
the TypeScript side reads too), so a key added to the table is refused out of its bounds with no rule of
its own in request.py."""

import json
import os
import tempfile
import unittest

from benchgrid_harness import protocol, request as request_module
from benchgrid_harness.errors import RequestError
from fakes import request

# Every row the harness checks by its bounds: the keys it receives and the settings derived from them.
ROWS = [r for r in protocol.TABLE["keys"] if r["harness"]] + [
    r for r in protocol.TABLE["request"] if r["type"] != "object"
]


def past(row):
    """A value just outside the row's bounds."""
    if "maximum" in row:
        return row["maximum"] + 1
    if "exclusiveMaximum" in row:
        return row["exclusiveMaximum"]
    return -1


class TableRulesTest(unittest.TestCase):
    def load(self, req):
        with tempfile.TemporaryDirectory(prefix="benchgrid-harness-test-") as folder:
            path = os.path.join(folder, "REQ.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(req, f)
            try:
                request_module.load_request(path)
                return []
            except RequestError as exc:
                return [line.strip() for line in str(exc).splitlines()[1:]]

    def test_every_setting_of_the_table_is_refused_past_its_bounds_and_as_another_kind(self):
        for row in ROWS:
            for value in (past(row), "1", True):
                req = request()
                req["settings"][row["key"]] = value
                lines = self.load(req)
                self.assertTrue(
                    any(line.startswith(f"settings.{row['key']}: expected") for line in lines),
                    f"{row['key']} = {value!r}: {lines}",
                )

    def test_a_setting_whose_default_is_null_may_be_absent_or_null_and_the_others_are_required(self):
        for row in ROWS:
            req = request()
            req["settings"].pop(row["key"], None)
            optional = row.get("default", 0) is None or row.get("required") is False
            self.assertEqual(self.load(req) == [], optional, row["key"])
            if row.get("default", 0) is None:
                req["settings"][row["key"]] = None
                self.assertEqual(self.load(req), [], row["key"])

    def test_the_words_name_the_bounds_of_the_table(self):
        self.assertEqual(protocol.expected("samples"), "an integer from 1 to 100000")
        self.assertEqual(protocol.expected("precision"), "null or a number between 0 and 1")
        self.assertEqual(protocol.expected("sampling_budget_s"), "a number of seconds from 0 to 86400")
        self.assertEqual(protocol.expected("rtol"), "a non-negative finite number")
        row = {"key": "limit_s", "type": "number", "exclusiveMinimum": 0, "maximum": 60}
        self.assertEqual(protocol._expected(row, True), "null or a number of seconds above 0, at most 60")


if __name__ == "__main__":
    unittest.main()
