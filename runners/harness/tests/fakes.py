"""What the harness's unit tests share: a fake clock that only the code under test moves, a request
that load_request accepts (every test changes one field of it to something hostile), and a scratch folder."""

import copy
import gc
import tempfile
import unittest
from unittest import mock

from benchgrid_harness import WIRE_VERSION

MS = 1_000_000  # nanoseconds


def scratch_folder(test, prefix="benchgrid-harness-test-"):
    """A temporary folder removed when `test` (a TestCase) is cleaned up; its path."""
    folder = tempfile.TemporaryDirectory(prefix=prefix)
    test.addCleanup(folder.cleanup)
    return folder.name


class Box:
    """A call's result that a test can hold a weak reference to (to see when the harness frees it)."""


class FakeClock:
    """A nanosecond clock that stands still unless a fake call `advance`s it; every read is logged in
    `events`, beside whatever else the test logs there, so a test can see what ran between two reads.
    `tick` is added after each read: with a tick, a collection between two reads takes one tick."""

    def __init__(self, tick=0):
        self.now = 0
        self.tick = tick
        self.events = []

    def __call__(self):
        self.events.append("clock")
        now = self.now
        self.now += self.tick
        return now

    def advance(self, ns):
        self.now += ns

    def call(self, ms_each, result=None, name="run"):
        """A zero-argument callable that takes `ms_each` ms per call (a number, or a list read in turn)."""
        durations = iter(ms_each) if isinstance(ms_each, list) else None

        def run():
            self.events.append(name)
            self.advance(int((next(durations) if durations else ms_each) * MS))
            return result() if callable(result) else result

        return run


def patch(test, target, name, value=mock.DEFAULT):
    """`target.name` replaced (by a MagicMock unless `value` is given) for the rest of `test`; returns it."""
    patcher = mock.patch.object(target, name, value)
    test.addCleanup(patcher.stop)
    return patcher.start()


def without_full_collections(test):
    """gc.collect replaced by a mock for the rest of `test`: with torch loaded a full collection takes tenths of
    a second, and tests of the clock need not pay it (the GC policy's tests keep it real). Returns the mock."""
    return patch(test, gc, "collect")


class CollectorTest(unittest.TestCase):
    """A test of the GC policy: starts with the collector on and nothing frozen, and leaves it so."""

    def setUp(self):
        self.assertTrue(gc.isenabled())
        self.assertEqual(gc.get_freeze_count(), 0)

    def tearDown(self):
        gc.unfreeze()
        gc.enable()


def settings(**changes):
    """A request's `settings` with sampling limits that a test then narrows."""
    base = {
        "warmups": 2,
        "samples": 20,
        "min_samples": 3,
        "sampling_budget_s": 100.0,
        "threads": 1,
        "rtol": 1e-5,
        "atol": 1e-6,
        "memory_calls": 1,
        "precision": None,
    }
    base.update(changes)
    return base


_REQUEST = {
    "protocol": WIRE_VERSION,
    "spec": {"name": "tiny", "digest": "0" * 64},
    "cell": {
        "id": "A/single_module_output/hooks/tiny",
        "group": "A",
        "contract": "single_module_output",
        "tool": "hooks",
        "subject": "tiny",
    },
    "contract": {
        "kind": "single_module_output",
        "params": {"site": "block"},
        "grad": False,
        "work": {"forwards": 1, "parameter_grads": False},
    },
    "subject": {
        "id": "tiny",
        "model": {"builder": "torchvision", "name": "resnet18", "seed": 0, "config": {}},
        "inputs": {
            "kind": "image",
            "shape": [1, 3, 32, 32],
            "dtype": "float32",
            "seed": 0,
            "stimuli": 1,
            "batch_size": 1,
        },
        "sites": {"block": "layer1"},
    },
    "tool": {"id": "hooks", "runner": "torch", "adapter": "hooks", "module": "benchgrid_torch.hooks", "library": None},
    "reference": {"tool": "raw", "module": "benchgrid_torch.raw"},
    "pairing": None,
    "device": "cpu",
    "mode": "time",
    "process_index": 0,
    "settings": settings(),
}


def request(**changes):
    """A fresh copy of a request load_request accepts; `changes` replace whole top-level fields."""
    out = copy.deepcopy(_REQUEST)
    out.update(changes)
    return out
