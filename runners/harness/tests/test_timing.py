"""timing.py in-process with a fake clock (as pyperf tests its worker): what a sample is, when sampling
stops and why, the garbage-collection policy around the samples, and warm-ups."""

import gc
import unittest
import weakref
from unittest import mock

import torch

from benchgrid_harness import timing
from fakes import MS, Box, CollectorTest, FakeClock, settings, without_full_collections

CPU = torch.device("cpu")

L = timing.Limits


class StopReasonTest(unittest.TestCase):
    def test_the_sample_count_ends_sampling_whatever_else_holds(self):
        self.assertEqual(timing.stop_reason(5, 0, [1] * 5, L(5, 5, 10, None)), "samples")
        self.assertEqual(timing.stop_reason(5, 99, [1] * 5, L(5, 1, 10, 0.5)), "samples")

    def test_nothing_stops_sampling_below_min_samples_not_even_a_spent_budget(self):
        self.assertIsNone(timing.stop_reason(2, 10**12, [1, 1], L(20, 3, 10, None)))
        self.assertIsNone(timing.stop_reason(2, 10**12, [1, 1], L(20, 3, 10, 0.5)))

    def test_the_budget_stops_sampling_once_spent_time_exceeds_it(self):
        self.assertEqual(timing.stop_reason(3, 11, [1, 1, 1], L(20, 3, 10, None)), "budget")
        self.assertIsNone(timing.stop_reason(3, 10, [1, 1, 1], L(20, 3, 10, None)), "exactly the budget is not over it")

    def test_precision_stops_once_the_median_interval_is_narrow_enough(self):
        steady = [100] * 6
        self.assertEqual(timing.stop_reason(6, 0, steady, L(20, 3, 10**9, 0.01)), "precision")
        self.assertIsNone(timing.stop_reason(6, 0, steady, L(20, 3, 10**9, None)), "no precision: no such stop")
        spread = [100, 300, 100, 300, 100, 300]
        self.assertIsNone(timing.stop_reason(6, 0, spread, L(20, 3, 10**9, 0.01)))

    def test_precision_judges_only_the_samples_taken_not_the_preallocated_rest(self):
        # Six steady samples then zeros: were the zeros judged, the median would be 0 and never precise.
        values = [100] * 6 + [0] * 14
        self.assertEqual(timing.stop_reason(6, 0, values, L(20, 3, 10**9, 0.01)), "precision")
        self.assertIsNone(timing.stop_reason(5, 0, values, L(20, 3, 10**9, 0.01)), "below 6 values nothing is precise")

    def test_the_budget_is_checked_before_precision(self):
        self.assertEqual(timing.stop_reason(6, 11, [100] * 6, L(20, 3, 10, 0.01)), "budget")


class LimitsTest(unittest.TestCase):
    def test_limits_come_from_the_settings_with_the_budget_in_nanoseconds(self):
        self.assertEqual(
            timing.limits_of(settings(samples=20, min_samples=3, sampling_budget_s=1.5, precision=0.02)),
            L(20, 3, 1_500_000_000, 0.02),
        )

    def test_overrides_replace_samples_and_budget_and_min_samples_never_exceeds_samples(self):
        self.assertEqual(
            timing.limits_of(settings(min_samples=10), samples=4, budget_s=0.25), L(4, 4, 250_000_000, None)
        )

    def test_a_request_without_precision_has_no_precision_stop(self):
        s = settings()
        del s["precision"]
        self.assertIsNone(timing.limits_of(s).precision)


class SampleTest(unittest.TestCase):
    def setUp(self):
        self.collect = without_full_collections(self)

    def test_each_sample_is_the_clock_difference_around_one_call(self):
        clock = FakeClock()
        timing_record, _ = timing.sample(clock.call([3, 1, 2, 5]), settings(samples=4), CPU, clock=clock)
        self.assertEqual(timing_record["samples_ms"], [3.0, 1.0, 2.0, 5.0])
        self.assertEqual(timing_record["stopped_by"], "samples")

    def test_the_clock_is_read_right_around_the_call_and_the_collection_runs_between_samples(self):
        clock = FakeClock()
        self.collect.side_effect = lambda: clock.events.append("gc")
        timing.sample(clock.call(1), settings(samples=2, min_samples=2), CPU, clock=clock)
        # One collection before sampling (then freeze), then per sample: clock, call, clock, and the timed
        # collection off the sample's clock.
        per_sample = ["clock", "run", "clock", "clock", "gc", "clock"]
        self.assertEqual(clock.events, ["gc"] + per_sample * 2)

    def test_collections_are_timed_apart_and_count_against_the_budget(self):
        clock = FakeClock(tick=2 * MS)  # every read moves 2 ms: a collection takes 2 ms, a call its own + 2 ms
        timing_record, _ = timing.sample(
            clock.call(10), settings(samples=20, min_samples=1, sampling_budget_s=0.035), CPU, clock=clock
        )
        self.assertEqual(timing_record["samples_ms"], [12.0, 12.0, 12.0])
        self.assertEqual(timing_record["gc_ms"], [2.0, 2.0, 2.0])
        # 14 ms per sample with its collection: 28 ms is within 35, 42 is past it.
        self.assertEqual(timing_record["stopped_by"], "budget")

    def test_a_spent_budget_still_takes_min_samples(self):
        clock = FakeClock()
        timing_record, _ = timing.sample(
            clock.call(50), settings(samples=20, min_samples=4, sampling_budget_s=0.001), CPU, clock=clock
        )
        self.assertEqual(len(timing_record["samples_ms"]), 4)
        self.assertEqual(timing_record["stopped_by"], "budget")

    def test_a_steady_call_stops_by_precision_after_six_samples(self):
        clock = FakeClock()
        timing_record, _ = timing.sample(
            clock.call(7), settings(samples=50, min_samples=3, precision=0.01), CPU, clock=clock
        )
        self.assertEqual(timing_record["samples_ms"], [7.0] * 6)
        self.assertEqual(timing_record["stopped_by"], "precision")

    def test_a_noisy_call_never_reaches_the_precision_and_takes_every_sample(self):
        clock = FakeClock()
        timing_record, _ = timing.sample(
            clock.call([1, 3] * 10), settings(samples=20, precision=0.01), CPU, clock=clock
        )
        self.assertEqual(len(timing_record["samples_ms"]), 20)
        self.assertEqual(timing_record["stopped_by"], "samples")

    def test_the_record_says_how_its_numbers_were_obtained(self):
        clock = FakeClock()
        timing_record, _ = timing.sample(clock.call(1), settings(samples=3, warmups=5), CPU, clock=clock)
        self.assertEqual(
            {k: timing_record[k] for k in ("timer", "sync", "warmups", "gc")},
            {"timer": "perf_counter_ns", "sync": "none", "warmups": 5, "gc": "collect-between-samples"},
        )
        self.assertEqual(len(timing_record["gc_ms"]), len(timing_record["samples_ms"]))

    def test_the_last_calls_result_is_returned_and_each_earlier_one_is_freed_before_the_next_clock(self):
        clock = FakeClock()
        made = []

        def run():
            # When this call starts, every earlier result must already be gone (freed outside the window).
            clock.events.append([ref() is None for ref in made])
            box = Box()
            made.append(weakref.ref(box))
            return box

        _, last = timing.sample(run, settings(samples=4, min_samples=4), CPU, clock=clock)
        self.assertIs(last, made[-1]())
        alive_at_each_call = [e for e in clock.events if isinstance(e, list)]
        self.assertEqual(alive_at_each_call, [[], [True], [True, True], [True, True, True]])


class GcPolicyTest(CollectorTest):
    def test_the_collector_is_off_and_what_lived_before_is_frozen_while_sampling(self):
        clock = FakeClock()
        seen = []

        def run():
            seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
            clock.advance(MS)

        timing.sample(run, settings(samples=3), CPU, clock=clock)
        self.assertEqual(seen, [(False, True)] * 3)
        self.assertTrue(gc.isenabled())
        self.assertEqual(gc.get_freeze_count(), 0)

    def test_the_collector_is_back_and_unfrozen_when_the_call_raises(self):
        clock = FakeClock()

        def run():
            raise RuntimeError("the tool failed mid-sample")

        with self.assertRaisesRegex(RuntimeError, "mid-sample"):
            timing.sample(run, settings(samples=3), CPU, clock=clock)
        self.assertTrue(gc.isenabled())
        self.assertEqual(gc.get_freeze_count(), 0)

    def test_a_collector_disabled_before_sampling_stays_disabled(self):
        gc.disable()
        clock = FakeClock()
        timing.sample(clock.call(1), settings(samples=2), CPU, clock=clock)
        self.assertFalse(gc.isenabled())
        self.assertEqual(gc.get_freeze_count(), 0)


class WarmUpTest(unittest.TestCase):
    def test_warm_ups_call_the_function_the_given_number_of_times_and_read_no_clock(self):
        calls = []
        with mock.patch.object(timing.time, "perf_counter_ns", side_effect=AssertionError("a warm-up read the clock")):
            timing.warm_up(lambda: calls.append(1), 3, CPU)
            timing.warm_up(lambda: calls.append(2), 0, CPU)
        self.assertEqual(calls, [1, 1, 1])

    def test_warm_ups_are_not_samples(self):
        clock = FakeClock()
        without_full_collections(self)
        run = clock.call(1)
        timing.warm_up(run, 4, CPU)
        record, _ = timing.sample(run, settings(samples=2, min_samples=2, warmups=4), CPU, clock=clock)
        self.assertEqual(clock.events.count("run"), 6)
        self.assertEqual(len(record["samples_ms"]), 2)
        self.assertEqual(record["warmups"], 4)


if __name__ == "__main__":
    unittest.main()
