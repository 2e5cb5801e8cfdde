"""Runs the harness's unit tests (every test_*.py in this folder) and reports their counts as JSON.

    python runners/harness/tests/run.py [--json FILE] [-v]

unittest's own report goes to stderr; FILE (or stdout) gets {"passed", "failed", "skipped", "failures"},
counted per test method (a test with failing subtests is one failure; a module that cannot be imported or
a failing setUpClass is one failure too). scripts/test.mjs adds these to npm test's closing line. The exit
status is 0 only when something ran and nothing failed.
"""

import argparse
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class CountingResult(unittest.TextTestResult):
    """A text result that also remembers which tests ran, so counts are per test whatever subtests did."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.ran = []

    def startTest(self, test):
        super().startTest(test)
        self.ran.append(test.id())


def _test_id(test):
    """A failing subtest counts against its test; other entries (import errors, class set-ups) by their own id."""
    return getattr(test, "test_case", test).id()


def counts(outcome):
    """{"passed", "failed", "skipped", "failures"} of a finished CountingResult."""
    failing = [_test_id(t) for t, _ in outcome.failures + outcome.errors] + [
        _test_id(t) for t in outcome.unexpectedSuccesses
    ]
    failed = sorted(set(failing))
    skipped = {_test_id(t) for t, _ in outcome.skipped} - set(failed)
    passed = [t for t in dict.fromkeys(outcome.ran) if t not in failed and t not in skipped]
    return {"passed": len(passed), "failed": len(failed), "skipped": len(skipped), "failures": failed}


def main(argv=None):
    parser = argparse.ArgumentParser(description="Run the benchgrid harness's unit tests; print their counts as JSON.")
    parser.add_argument("--json", help="write the counts here instead of stdout")
    parser.add_argument("-v", "--verbose", action="store_true", help="one line per test")
    args = parser.parse_args(argv)
    # The tests import `fakes` from here and `benchgrid_harness` from the folder above, as the cell processes do.
    sys.path[:0] = [HERE, os.path.dirname(HERE)]
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    runner = unittest.TextTestRunner(stream=sys.stderr, verbosity=2 if args.verbose else 1, resultclass=CountingResult)
    report = counts(runner.run(suite))
    text = json.dumps(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0 if report["failed"] == 0 and report["passed"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
