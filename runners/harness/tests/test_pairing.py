"""Paired timing in-process with a fake clock: the pair orders and the pair loop (timing.py: what it times, when
it stops, whose result it returns), and how the block before the import (pairing.py) and the pairs after it
share the budget."""

import functools
import gc
import random
import types
import unittest
import weakref
from unittest import mock

import torch

from benchgrid_harness import pairing, timing
from fakes import MS, Box, CollectorTest, FakeClock, patch, request, settings, without_full_collections

CPU = torch.device("cpu")
TOOL, BASELINE = 0, 1


def limits(samples=20, min_samples=1, budget_ms=10**6, precision=None):
    return timing.Limits(samples, min_samples, budget_ms * MS, precision)


class OrdersTest(unittest.TestCase):
    def test_every_two_consecutive_pairs_hold_one_of_each_order(self):
        for seed in range(20):
            drawn = timing.orders(random.Random(seed), 40)
            self.assertEqual(len(drawn), 40)
            for j in range(0, 40, 2):
                self.assertEqual(sorted(drawn[j : j + 2]), [(0, 1), (1, 0)], f"seed {seed}, pairs {j} and {j + 1}")

    def test_an_odd_count_is_the_balanced_sequence_cut_short(self):
        self.assertEqual(timing.orders(random.Random(5), 7), timing.orders(random.Random(5), 8)[:7])
        self.assertEqual(timing.orders(random.Random(5), 0), [])

    def test_which_order_comes_first_in_a_block_is_a_seeded_coin(self):
        firsts = [timing.orders(random.Random(seed), 2)[0] for seed in range(40)]
        self.assertIn((0, 1), firsts)
        self.assertIn((1, 0), firsts)

    def test_the_same_seed_draws_the_same_orders_and_another_seed_other_orders(self):
        req = request(
            pairing={"baseline": {"tool": "raw", "module": "benchgrid_torch.raw"}, "seed": 3894069229, "before": 3}
        )
        first = timing.orders(pairing.new_rng(req), 30)
        self.assertEqual(timing.orders(pairing.new_rng(req), 30), first)
        self.assertEqual(first, timing.orders(random.Random(3894069229), 30))
        req["pairing"]["seed"] += 1
        self.assertNotEqual(timing.orders(pairing.new_rng(req), 30), first)


class PairLoopTest(unittest.TestCase):
    def setUp(self):
        without_full_collections(self)

    def pairs(self, tool_ms, baseline_ms, order, lim, clock=None):
        clock = clock or FakeClock()
        calls = (clock.call(tool_ms, name="tool"), clock.call(baseline_ms, name="baseline"))
        return timing.sample_pairs(calls, order, lim, CPU, clock=clock), clock

    def test_each_pair_runs_in_its_drawn_order_and_each_side_keeps_its_own_samples(self):
        order = [(0, 1), (1, 0), (1, 0), (0, 1)]
        (count, stopped_by, ms, _, _, _), clock = self.pairs([2, 4, 6, 8], [1, 1, 1, 1], order, limits(samples=4))
        calls = [e for e in clock.events if e != "clock"]
        self.assertEqual(calls, ["tool", "baseline", "baseline", "tool", "baseline", "tool", "tool", "baseline"])
        self.assertEqual((count, stopped_by), (4, "samples"))
        self.assertEqual(ms[TOOL], [2.0, 4.0, 6.0, 8.0])
        self.assertEqual(ms[BASELINE], [1.0, 1.0, 1.0, 1.0])

    def test_precision_judges_the_ratios_so_a_drift_shared_by_both_sides_does_not_hold_it_back(self):
        # Both sides slow down together: their samples spread, their ratio stays 2.
        drift = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        (count, stopped_by, ms, _, _, _), _ = self.pairs(
            [2 * d for d in drift], drift, [(0, 1)] * 10, limits(samples=10, min_samples=3, precision=0.01)
        )
        self.assertEqual((count, stopped_by), (6, "precision"))
        self.assertEqual([t / b for t, b in zip(ms[TOOL], ms[BASELINE])], [2.0] * 6)

    def test_the_budget_counts_both_sides_and_their_collections(self):
        clock = FakeClock(tick=MS)  # each call +1 ms, each collection 1 ms
        (count, stopped_by, ms, gc_ms, _, _), _ = self.pairs(9, 4, [(0, 1)] * 20, limits(budget_ms=50), clock)
        # (10 + 1) + (5 + 1) = 17 ms a pair: 34 within 50, 51 past it.
        self.assertEqual((count, stopped_by), (3, "budget"))
        self.assertEqual(gc_ms, [[1.0] * 3, [1.0] * 3])
        self.assertEqual(ms, [[10.0] * 3, [5.0] * 3])

    def test_min_samples_pairs_are_taken_even_past_the_budget(self):
        (count, stopped_by, _, _, _, _), _ = self.pairs(30, 30, [(1, 0)] * 20, limits(min_samples=5, budget_ms=1))
        self.assertEqual((count, stopped_by), (5, "budget"))

    def test_a_baseline_that_reads_zero_time_does_not_break_the_loop(self):
        (count, stopped_by, ms, _, _, _), _ = self.pairs(1, 0, [(0, 1)] * 8, limits(samples=8, precision=0.5))
        self.assertEqual((count, stopped_by), (8, "samples"))
        self.assertEqual(ms[BASELINE], [0.0] * 8)

    def test_the_tools_last_result_is_returned_even_when_the_baseline_ran_last(self):
        clock = FakeClock()
        made = {"tool": 0, "baseline": 0}

        def side(name):
            def result():
                made[name] += 1
                return f"{name} {made[name]}"

            return clock.call(1, result=result, name=name)

        out = timing.sample_pairs(
            (side("tool"), side("baseline")), [(1, 0), (0, 1)], limits(samples=2), CPU, clock=clock
        )
        self.assertEqual(out[4], "tool 2")

    def test_a_pairs_results_are_freed_before_the_next_pairs_first_clock(self):
        clock = FakeClock()
        made = []
        alive_at_pair_start = []

        def call(first):
            def run():
                if first:
                    alive_at_pair_start.append(sum(ref() is not None for ref in made))
                box = Box()
                made.append(weakref.ref(box))
                clock.advance(MS)
                return box

            return run

        timing.sample_pairs((call(True), call(False)), [(0, 1)] * 4, limits(samples=4, min_samples=4), CPU, clock=clock)
        self.assertEqual(alive_at_pair_start, [0, 0, 0, 0])


class PairGcPolicyTest(CollectorTest):
    def test_the_collector_is_off_for_both_sides_and_back_after_an_error(self):
        clock = FakeClock()
        seen = []

        def tool():
            seen.append(gc.isenabled())
            clock.advance(MS)

        def failing_baseline():
            seen.append(gc.isenabled())
            raise RuntimeError("baseline failed")

        timing.sample_pairs((tool, tool), [(0, 1)] * 2, limits(samples=2), CPU, clock=clock)
        self.assertEqual((seen, gc.isenabled(), gc.get_freeze_count()), ([False] * 4, True, 0))
        with self.assertRaisesRegex(RuntimeError, "baseline failed"):
            timing.sample_pairs((tool, failing_baseline), [(0, 1)] * 2, limits(samples=2), CPU, clock=clock)
        self.assertEqual((gc.isenabled(), gc.get_freeze_count()), (True, 0))


class BudgetShareTest(unittest.TestCase):
    """The block before the import gets before / (before + 2 x samples) of the budget, the pairs what is left."""

    def setUp(self):
        self.clock = FakeClock()
        # The block before is timed by pairing.py's `sample`, the pairs by timing.py's `sample_pairs`.
        for module, name, real in ((pairing, "sample", timing.sample), (timing, "sample_pairs", timing.sample_pairs)):
            patch(self, module, name, functools.partial(real, clock=self.clock))
        without_full_collections(self)

    def before(self, baseline_ms, before, **changes):
        req = request(
            settings=settings(**changes),
            pairing={"baseline": {"tool": "raw", "module": "benchgrid_torch.raw"}, "seed": 1, "before": before},
        )
        baseline = self.clock.call(baseline_ms, name="baseline")
        with mock.patch.object(pairing, "baseline_function", return_value=lambda twin: baseline):
            block, returned = pairing.before_block(req, types.SimpleNamespace(device=CPU))
        self.assertIs(returned, baseline)
        return block

    def test_the_block_before_stops_at_its_share_of_the_budget_after_the_tools_warm_up_calls(self):
        # 0.9 s x 5 / (5 + 2 x 20) = 100 ms: 3 calls of 30 ms are within it, the 4th is past it; before them,
        # the 2 warm-up calls the tool gets too (untimed).
        block = self.before(30, 5, samples=20, min_samples=1, sampling_budget_s=0.9, warmups=2)
        self.assertEqual(block, {"baseline_ms": [30.0] * 4, "baseline_gc_ms": [0.0] * 4, "stopped_by": "budget"})
        self.assertEqual(self.clock.events.count("baseline"), 2 + 4)

    def test_the_block_before_warms_up_once_even_when_the_tool_gets_no_warm_up(self):
        # The first call after the build is often a cold outlier (40.5 ms against 28.8 ms on resnet18_cpu).
        self.before(30, 3, samples=20, min_samples=1, sampling_budget_s=100, warmups=0)
        self.assertEqual(self.clock.events.count("baseline"), 1 + 3)

    def test_the_block_before_takes_its_own_count_when_the_budget_allows(self):
        block = self.before(1, 3, samples=20, min_samples=10, sampling_budget_s=100)
        self.assertEqual((len(block["baseline_ms"]), block["stopped_by"]), (3, "samples"))

    def test_the_block_before_takes_two_samples_whatever_min_samples_says(self):
        for min_samples in (1, 10):
            block = self.before(50, 5, samples=20, min_samples=min_samples, sampling_budget_s=0.001)
            self.assertEqual(
                (len(block["baseline_ms"]), block["stopped_by"]), (2, "budget"), f"min_samples {min_samples}"
            )

    def test_the_pairs_get_what_the_block_before_left_and_record_who_ran_first(self):
        req = request(settings=settings(samples=20, min_samples=1, sampling_budget_s=1.0))
        run, baseline = self.clock.call(20, name="tool"), self.clock.call(10, name="baseline")
        timing_record, paired, _ = timing.timed_pairs(req, run, baseline, CPU, random.Random(7), spent_s=0.7)
        # 300 ms left at 30 ms a pair: 10 pairs reach it, the 11th passes it.
        self.assertEqual(timing_record["samples_ms"], [20.0] * 11)
        self.assertEqual(timing_record["stopped_by"], "budget")
        self.assertEqual(paired["baseline_ms"], [10.0] * 11)
        expected = timing.orders(random.Random(7), 20)[:11]
        self.assertEqual(paired["tool_first"], [o == (0, 1) for o in expected])

    def test_pairs_after_a_block_that_spent_the_whole_budget_still_take_min_samples(self):
        req = request(settings=settings(samples=20, min_samples=4, sampling_budget_s=1.0))
        timing_record, paired, _ = timing.timed_pairs(
            req, self.clock.call(1), self.clock.call(1), CPU, random.Random(1), spent_s=5.0
        )
        self.assertEqual(
            (len(timing_record["samples_ms"]), len(paired["tool_first"]), timing_record["stopped_by"]), (4, 4, "budget")
        )


if __name__ == "__main__":
    unittest.main()
