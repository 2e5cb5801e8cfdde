"""What the harness's unit tests share: a fake clock that only the code under test moves, and a request
that load_request accepts (every test changes one field of it to something hostile)."""

import copy
import json
import os
import tempfile

from benchgrid_harness import WIRE_VERSION

MS = 1_000_000  # nanoseconds


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


def settings(**changes):
    """A request's `settings` with sampling limits that a test then narrows."""
    base = {"warmups": 2, "samples": 20, "min_samples": 3, "sampling_budget_s": 100.0, "threads": 1,
            "rtol": 1e-5, "atol": 1e-6, "memory_calls": 1, "precision": None}
    base.update(changes)
    return base


_REQUEST = {
    "protocol": WIRE_VERSION,
    "spec": {"name": "tiny", "digest": "0" * 64},
    "cell": {"id": "A/single_module_output/hooks/tiny", "group": "A", "contract": "single_module_output",
             "tool": "hooks", "subject": "tiny"},
    "contract": {"kind": "single_module_output", "params": {"site": "block"}, "grad": False,
                 "work": {"forwards": 1, "parameter_grads": False}},
    "subject": {"id": "tiny", "model": {"builder": "torchvision", "name": "resnet18", "seed": 0, "config": {}},
                "inputs": {"kind": "image", "shape": [1, 3, 32, 32], "dtype": "float32", "seed": 0,
                           "stimuli": 1, "batch_size": 1},
                "sites": {"block": "layer1"}},
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


def write_json(value, text=None):
    """Path of a temporary file holding `value` as JSON (or `text` as it is); removed with its folder by the caller's tmp."""
    fd, path = tempfile.mkstemp(suffix=".json", prefix="benchgrid-harness-test-")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text if text is not None else json.dumps(value))
    return path
