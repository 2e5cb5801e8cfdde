"""memory.py's growth readings: what RSS and the CUDA counter are read from, the bytes a held result is
subtracted by, the arithmetic per call, and timing's loops framed by the two readings (real RSS, no clock)."""

import mmap
import os
import tempfile
import types
import unittest

import torch

from benchgrid_harness import memory, timing
from fakes import FakeClock, patch, settings, without_full_collections

CPU = torch.device("cpu")
KIB = 1024
MIB = 1024 * KIB


class RssTest(unittest.TestCase):
    def statm(self, text):
        fd, path = tempfile.mkstemp()
        with os.fdopen(fd, "w") as f:
            f.write(text)
        self.addCleanup(os.unlink, path)
        return path

    def test_rss_is_the_resident_pages_of_statm_times_the_page_size(self):
        self.assertEqual(memory.rss_bytes(self.statm("9000 25 7 1 0 300 0\n")), 25 * memory.resource.getpagesize())

    def test_rss_is_none_where_there_is_no_statm_to_read(self):
        self.assertIsNone(memory.rss_bytes("/nonexistent/statm"))
        self.assertIsNone(memory.rss_bytes(self.statm("")))
        self.assertIsNone(memory.rss_bytes(self.statm("not numbers\n")))

    @unittest.skipUnless(os.path.exists("/proc/self/statm"), "Linux only")
    def test_rss_goes_up_by_what_the_process_touches(self):
        before = memory.rss_bytes()
        kept = bytearray(16 * MIB)  # zero-filled: every page is written
        grown = memory.rss_bytes() - before
        self.assertGreater(grown, 15 * MIB)
        del kept


class FakeCuda:
    """A torch module whose only CUDA function is memory_allocated, counting its calls."""

    def __init__(self, allocated):
        self.asked = []
        self.cuda = types.SimpleNamespace(memory_allocated=lambda device: self.asked.append(device) or allocated)


class CudaAllocatedTest(unittest.TestCase):
    def test_on_the_cpu_nothing_is_read_and_the_reading_is_none(self):
        fake = FakeCuda(123)
        self.assertIsNone(memory.cuda_allocated_bytes(fake, CPU))
        self.assertEqual(fake.asked, [])

    def test_on_cuda_the_allocators_count_for_that_device_is_read(self):
        fake = FakeCuda(5 * MIB)
        device = torch.device("cuda", 1)  # a device object needs no GPU
        self.assertEqual(memory.cuda_allocated_bytes(fake, device), 5 * MIB)
        self.assertEqual(fake.asked, [device])

    def test_a_reading_is_rss_and_the_cuda_count(self):
        rss, cuda = memory.reading(torch.device("cuda", 0), FakeCuda(7))
        self.assertEqual(cuda, 7)
        self.assertTrue(rss is None or rss > 0)
        self.assertIsNone(memory.reading(CPU, FakeCuda(7))[1])


class HeldBytesTest(unittest.TestCase):
    def test_a_tensor_holds_its_storage(self):
        self.assertEqual(memory.held_bytes(torch.zeros(256)), {"cpu": 1024, "cuda": 0})

    def test_a_view_holds_its_whole_storage_and_views_of_one_storage_count_once(self):
        base = torch.zeros(1000)
        self.assertEqual(memory.held_bytes((base[:10], base[500:], base))["cpu"], 4000)

    def test_nested_structures_are_walked_and_other_values_ignored(self):
        value = {"a": [torch.zeros(10), (torch.zeros(5, dtype=torch.float64), "text")], "b": 3, "c": None}
        self.assertEqual(memory.held_bytes(value), {"cpu": 80, "cuda": 0})

    def test_nothing_held_is_zero(self):
        self.assertEqual(memory.held_bytes(None), {"cpu": 0, "cuda": 0})


class GrowthTest(unittest.TestCase):
    def test_the_record_keeps_the_two_ends_the_held_bytes_and_the_calls(self):
        series = [(100 * MIB + i * MIB + 4096, None) for i in range(1, 11)]
        g = memory.growth((100 * MIB, None), series[-1], {"cpu": 4096, "cuda": 0}, 10, series)
        self.assertEqual(g["calls"], 10)
        self.assertEqual(g["rss_bytes"], [100 * MIB, 110 * MIB + 4096])
        self.assertEqual(g["per_call_bytes"], {"rss": MIB, "cuda": None})
        self.assertEqual(g["held_bytes"], {"rss": 4096, "cuda": None})
        self.assertIsNone(g["cuda_allocated_bytes"])

    def test_memory_given_back_is_negative_growth(self):
        series = [(8 * MIB - i * MIB, None) for i in range(1, 4)]
        self.assertEqual(
            memory.growth((8 * MIB, None), series[-1], {"cpu": 0, "cuda": 0}, 3, series)["per_call_bytes"]["rss"], -MIB
        )

    def test_under_three_calls_a_step_cannot_be_told_from_a_leak_and_there_is_no_figure(self):
        series = [(445 * MIB, None), (445 * MIB, None)]
        self.assertEqual(
            memory.growth((400 * MIB, None), series[-1], {"cpu": 0, "cuda": 0}, 2, series)["per_call_bytes"],
            {"rss": None, "cuda": None},
        )

    def test_with_a_reading_after_each_call_a_steady_leak_is_its_slope(self):
        series = [(50 * MIB + i * MIB, None) for i in range(1, 9)]
        g = memory.growth((50 * MIB, None), series[-1], {"cpu": 0, "cuda": 0}, 8, series)
        self.assertEqual(g["per_call_bytes"]["rss"], MIB)

    def test_a_one_off_step_is_not_growth_where_the_two_ends_would_call_it_so(self):
        # The first timed backward makes 45 MiB of parameter gradients that every later call reuses.
        series = [(400 * MIB + 45 * MIB + (i % 2) * 4096, None) for i in range(8)]
        g = memory.growth((400 * MIB, None), series[-1], {"cpu": 0, "cuda": 0}, 8, series)
        self.assertLess(abs(g["per_call_bytes"]["rss"]), 8 * KIB)
        # The two ends' difference over the calls would read 5.6 MiB per call.
        self.assertGreater((g["rss_bytes"][1] - g["rss_bytes"][0]) / g["calls"], 5 * MIB)

    def test_the_slope_is_theil_sens_median_of_pairwise_slopes(self):
        self.assertEqual(memory.robust_slope([0, 10, 20, 30]), 10)
        self.assertEqual(memory.robust_slope([0, 100, 100, 100, 100]), 0)  # a step after the first reading
        self.assertEqual(memory.robust_slope([0, 0, 0, 0, 0, 0, 0, 100]), 0)  # and before the last
        self.assertEqual(memory.robust_slope([5, 0, 10, 20, 30, 40]), 10)  # one stray reading

    def test_a_long_series_is_thinned_and_keeps_its_slope_per_call(self):
        self.assertEqual(memory.robust_slope([3 * i for i in range(5000)]), 3)
        self.assertIsNone(memory.robust_slope([0, 1]))
        self.assertIsNone(memory.robust_slope([0, None, 2]))

    def test_on_cuda_the_series_is_judged_per_counter(self):
        series = [(10, 2 * MIB + i * MIB) for i in range(4)]
        g = memory.growth((10, 2 * MIB), series[-1], {"cpu": 0, "cuda": 0}, 4, series)
        self.assertEqual(g["per_call_bytes"], {"rss": 0, "cuda": MIB})

    def test_a_counter_not_read_has_no_growth(self):
        g = memory.growth((None, None), (None, None), {"cpu": 0, "cuda": 0}, 3)
        self.assertEqual((g["rss_bytes"], g["per_call_bytes"]), (None, {"rss": None, "cuda": None}))


class ReadingPlaceTest(unittest.TestCase):
    """Where the readings fall: after the collection before the first sample, after each sample's (each
    pair's) collection, and once more at the end; never between a clock's two reads."""

    def setUp(self):
        self.clock = FakeClock()
        without_full_collections(self).side_effect = lambda: self.clock.events.append("gc")
        patch(self, memory, "reading", lambda device: self.clock.events.append("read") or (None, None))

    def test_the_unpaired_loop_is_framed_by_the_readings(self):
        record, _ = timing.sample(self.clock.call(1), settings(samples=2, min_samples=2), CPU, clock=self.clock)
        per_sample = ["clock", "run", "clock", "clock", "gc", "clock", "read"]
        self.assertEqual(self.clock.events, ["gc", "read"] + per_sample * 2 + ["read"])
        self.assertEqual(record["memory_growth"]["calls"], 2)

    def test_the_paired_loop_is_framed_by_the_readings(self):
        calls = (self.clock.call(1, name="tool"), self.clock.call(1, name="baseline"))
        out = timing.sample_pairs(
            calls, [(0, 1), (1, 0)], timing.limits_of(settings(samples=2, min_samples=2)), CPU, clock=self.clock
        )
        events = self.clock.events
        self.assertEqual(events[:2], ["gc", "read"])
        self.assertEqual(events[-4:], ["gc", "clock", "read", "read"])
        self.assertEqual(events.count("read"), 2 + 2)
        self.assertEqual(out[5]["calls"], 2)


def keep(kept):
    """A call that keeps one more mebibyte of resident memory each time."""

    def run():
        pages = mmap.mmap(-1, MIB)
        pages.write(b"\x01" * MIB)
        kept.append(pages)

    return run


def mapped_tensor():
    """A 4 MiB float tensor on a fresh, written mapping, unmapped when the tensor is freed."""
    pages = mmap.mmap(-1, 4 * MIB)
    pages.write(b"\x01" * (4 * MIB))
    return torch.frombuffer(pages, dtype=torch.float32)


@unittest.skipUnless(os.path.exists("/proc/self/statm"), "Linux only")
class SampledGrowthTest(unittest.TestCase):
    """timing's loops with real readings: a fake clock, real calls that keep (or return) memory, warmed up
    first as a cell's are. What is kept is a fresh mapping with every page written: memory that malloc
    could instead place in pages an earlier test freed but the process still holds (RSS is then blind to
    it, docs/protocol.md "Memory"), and these tests are of the arithmetic, not of glibc."""

    def warmed(self, *calls):
        for call in calls:
            timing.warm_up(call, 3, CPU)
        return calls

    def test_a_call_that_keeps_a_mebibyte_grows_a_mebibyte_per_sample(self):
        kept = []
        (run,) = self.warmed(keep(kept))
        record, _ = timing.sample(run, settings(samples=8, min_samples=8), CPU, clock=FakeClock())
        growth = record["memory_growth"]
        self.assertEqual(growth["calls"], 8)
        self.assertLess(abs(growth["per_call_bytes"]["rss"] - MIB), 0.2 * MIB)

    def test_the_last_result_held_for_the_exactness_check_is_not_growth(self):
        (run,) = self.warmed(mapped_tensor)
        record, last = timing.sample(run, settings(samples=4, min_samples=4), CPU, clock=FakeClock())
        growth = record["memory_growth"]
        self.assertEqual(growth["held_bytes"]["rss"], 4 * MIB)
        # Unsubtracted, the 4 MiB result would read as a mebibyte per call.
        self.assertLess(growth["per_call_bytes"]["rss"], 128 * KIB)
        self.assertEqual(last.numel(), MIB)

    def test_paired_calls_count_the_tools_calls_and_only_its_result_is_held(self):
        kept = []
        calls = self.warmed(lambda: keep(kept)() or torch.ones(1024), lambda: torch.ones(2048))
        out = timing.sample_pairs(
            calls, [(0, 1), (1, 0)] * 3, timing.limits_of(settings(samples=6, min_samples=6)), CPU, clock=FakeClock()
        )
        growth = out[5]
        self.assertEqual((growth["calls"], growth["held_bytes"]["rss"]), (6, 4096))
        self.assertLess(abs(growth["per_call_bytes"]["rss"] - MIB), 0.2 * MIB)


if __name__ == "__main__":
    unittest.main()
