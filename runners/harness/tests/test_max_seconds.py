"""protocol.max_seconds_per_process in timing.py: a timing loop stops taking samples once that much wall-clock
time has passed since its first sample began (read between samples, off the clock), never below min_samples,
and says `budget`; without it the clock is read exactly as before."""

import unittest

import torch

from benchgrid_harness import timing
from fakes import MS, FakeClock, settings, without_full_collections

CPU = torch.device("cpu")
L = timing.Limits


class WallClockStopTest(unittest.TestCase):
    def test_past_the_limit_sampling_stops_as_a_spent_budget_but_never_below_min_samples(self):
        self.assertEqual(timing.stop_reason(3, 0, [1] * 3, L(20, 3, 10**9, None, 25), since=26), "budget")
        self.assertIsNone(
            timing.stop_reason(3, 0, [1] * 3, L(20, 3, 10**9, None, 25), since=25), "exactly the limit is not over it"
        )
        self.assertIsNone(timing.stop_reason(2, 0, [1] * 2, L(20, 3, 10**9, None, 25), since=10**12))
        self.assertEqual(timing.stop_reason(20, 0, [1] * 20, L(20, 3, 10**9, None, 25), since=26), "samples")

    def test_the_limit_is_the_settings_seconds_in_nanoseconds_and_absent_is_none(self):
        self.assertEqual(timing.limits_of(settings(max_seconds_per_process=1.5)).max_ns, 1_500_000_000)
        self.assertIsNone(timing.limits_of(settings()).max_ns)
        self.assertIsNone(timing.limits_of(settings(max_seconds_per_process=None)).max_ns)
        self.assertIsNone(L(20, 3, 10, None).max_ns, "limits made without it have none")


class SampleWithALimitTest(unittest.TestCase):
    def setUp(self):
        self.collect = without_full_collections(self)

    def sample(self, ms, tick=0, **changes):
        """The timing record of a call of `ms` ms under settings with `changes` (a fake clock moving `tick` per read)."""
        clock = FakeClock(tick=tick)
        return timing.sample(
            clock.call(ms), settings(**{"samples": 20, "min_samples": 1, **changes}), CPU, clock=clock
        )[0]

    def test_samples_stop_once_the_wall_clock_since_the_first_passes_the_limit(self):
        record = self.sample(10, max_seconds_per_process=0.025)
        # 10 ms a sample: 20 ms is within 25, 30 ms is past it; the timed-work budget (100 s) is far off.
        self.assertEqual((record["samples_ms"], record["stopped_by"]), ([10.0] * 3, "budget"))

    def test_the_limit_counts_what_the_timed_work_does_not(self):
        # Every clock read moves 5 ms, so the time between samples is wall time too: 1 ms calls, yet few samples.
        record = self.sample(1, tick=5 * MS, max_seconds_per_process=0.04)
        self.assertEqual((len(record["samples_ms"]) < 20, record["stopped_by"]), (True, "budget"))

    def test_min_samples_are_taken_whatever_the_limit(self):
        self.assertEqual(len(self.sample(50, min_samples=4, max_seconds_per_process=0.001)["samples_ms"]), 4)

    def test_the_clock_is_read_once_before_the_first_sample_and_once_after_each_collection(self):
        clock = FakeClock()
        self.collect.side_effect = lambda: clock.events.append("gc")
        timing.sample(clock.call(1), settings(samples=2, min_samples=2, max_seconds_per_process=60), CPU, clock=clock)
        per_sample = ["clock", "run", "clock", "clock", "gc", "clock", "clock"]
        self.assertEqual(clock.events, ["gc", "clock"] + per_sample * 2)

    def test_pairs_stop_by_the_limit_too(self):
        clock = FakeClock()
        limits = L(20, 1, 10**12, None, 25 * MS)
        count, stopped_by, *_ = timing.sample_pairs(
            (clock.call(5), clock.call(5)), [(0, 1)] * 20, limits, CPU, clock=clock
        )
        # 10 ms a pair: 20 ms is within 25, 30 ms is past it.
        self.assertEqual((count, stopped_by), (3, "budget"))


if __name__ == "__main__":
    unittest.main()
