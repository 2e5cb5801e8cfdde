"""What the request tests share (test_request.py, test_request_subject.py): a request file written to a
temporary folder, and the problem lines load_request gives for it."""

import json
import os
import tempfile
import unittest

from benchgrid_harness import request as request_module
from benchgrid_harness.errors import RequestError
from fakes import request


def drop(data, path):
    """`data` without the field at the dotted `path`."""
    *parents, last = path.split(".")
    for key in parents:
        data = data[key]
    del data[last]


def put(data, path, value):
    *parents, last = path.split(".")
    for key in parents:
        data = data[key]
    data[last] = value


class RequestFileTest(unittest.TestCase):
    """A test case that writes request files; it has no tests of its own."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory(prefix="benchgrid-harness-test-")
        self.addCleanup(folder.cleanup)
        self.folder = folder.name

    def write(self, value=None, text=None):
        path = os.path.join(self.folder, "REQ.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text if text is not None else json.dumps(value))
        return path

    def problems(self, value=None, text=None):
        """The problem lines load_request gives for a request (the first line names the file)."""
        with self.assertRaises(RequestError) as caught:
            request_module.load_request(self.write(value, text))
        return str(caught.exception).splitlines()

    def refuses(self, path, value, expected):
        """A request whose `path` holds `value` is refused with a line about `path` saying `expected`."""
        req = request()
        put(req, path, value)
        lines = self.problems(req)
        self.assertTrue(
            any(line.strip().startswith(f"{path}:") and expected in line for line in lines),
            f"{path} = {value!r}: {lines}",
        )
