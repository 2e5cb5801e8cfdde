"""precision_control.py: which reduced-precision cells the control re-judges, the float32-rounding bound that
decides it for a `close` cell, and the verdict the control's float32 comparison gives (`degraded` or `mismatch`)."""

import unittest

import torch

from benchgrid_harness import precision_control as pc

FLOAT32 = {"rtol": 1e-5, "atol": 1e-6}


def exact(verdict, diff):
    """An `exact` object as exactness.compare writes it, at a bfloat16 tolerance."""
    return {"verdict": verdict, "max_abs_diff": diff, "reference": "hooks", "rtol": 1.6e-2, "atol": 1e-5}


def control(verdict, diff=0.0):
    return {
        "dtype": "float32",
        "from": "bfloat16",
        "verdict": verdict,
        "max_abs_diff": diff,
        "rtol": 1e-5,
        "atol": 1e-6,
        "bound": 4e-5,
        "error": None,
    }


REFERENCE = torch.tensor([[-4.0, 1.0], [0.5, float("nan")]])  # scale 4: the bound is 4e-5


class ScaleTest(unittest.TestCase):
    def test_is_the_largest_finite_magnitude_of_every_floating_tensor(self):
        value = {"a": REFERENCE, "b": [torch.tensor([2.0, float("-inf")]), torch.tensor([7, 9])]}
        self.assertEqual(pc.scale(value), 4.0)

    def test_is_zero_for_an_output_with_no_floating_values(self):
        self.assertEqual(pc.scale([torch.tensor([3, 4]), torch.zeros(0)]), 0.0)

    def test_the_bound_is_1e_5_of_the_scale(self):
        self.assertAlmostEqual(pc.bound(pc.scale(REFERENCE)), 4e-5)


class NeedsControlTest(unittest.TestCase):
    def test_a_mismatch_on_a_reduced_precision_subject_is_controlled(self):
        for dtype in ("bfloat16", "float16"):
            needed, limit = pc.needs_control(dtype, exact("mismatch", 0.5), REFERENCE, FLOAT32)
            self.assertTrue(needed)
            self.assertAlmostEqual(limit, 4e-5)

    def test_a_mismatch_whose_values_cannot_be_lined_up_is_controlled_too(self):
        # NaN positions can differ by precision alone (a float16 overflow).
        self.assertTrue(pc.needs_control("float16", exact("mismatch", None), REFERENCE, FLOAT32)[0])

    def test_a_close_cell_beyond_float32_rounding_is_controlled(self):
        self.assertTrue(pc.needs_control("bfloat16", exact("close", 1e-3), REFERENCE, FLOAT32)[0])

    def test_a_close_cell_within_float32_rounding_needs_no_explanation(self):
        self.assertFalse(pc.needs_control("bfloat16", exact("close", 3e-5), REFERENCE, FLOAT32)[0])

    def test_bit_and_vacuous_cells_are_never_controlled(self):
        for verdict in ("bit", "vacuous"):
            self.assertEqual(pc.needs_control("bfloat16", exact(verdict, 0.0), REFERENCE, FLOAT32), (False, None))

    def test_a_float32_or_float64_subject_never_runs_the_control(self):
        for dtype in ("float32", "float64"):
            self.assertEqual(pc.needs_control(dtype, exact("mismatch", 0.5), REFERENCE, FLOAT32), (False, None))

    def test_a_request_without_a_float32_tolerance_runs_no_control(self):
        self.assertEqual(pc.needs_control("bfloat16", exact("mismatch", 0.5), REFERENCE, None), (False, None))

    def test_a_cell_without_a_comparison_runs_no_control(self):
        self.assertEqual(pc.needs_control("bfloat16", None, REFERENCE, FLOAT32), (False, None))


class JudgedTest(unittest.TestCase):
    def test_agreement_at_float32_makes_the_cell_degraded(self):
        for verdict in ("bit", "close"):
            for before in ("mismatch", "close"):
                out = pc.judged(exact(before, 0.03), control(verdict))
                self.assertEqual(out["verdict"], "degraded")
                self.assertEqual(out["max_abs_diff"], 0.03)  # the subject's own difference is kept
                self.assertEqual(out["precision_control"]["verdict"], verdict)

    def test_disagreement_at_float32_is_a_mismatch(self):
        for before in ("mismatch", "close"):
            self.assertEqual(pc.judged(exact(before, 0.03), control("mismatch", 0.01))["verdict"], "mismatch")

    def test_a_control_that_failed_leaves_the_verdict_as_it_was(self):
        failed = dict(control(None, None), error="RuntimeError: out of memory")
        out = pc.judged(exact("mismatch", 0.03), failed)
        self.assertEqual(
            [out["verdict"], out["precision_control"]["error"]], ["mismatch", "RuntimeError: out of memory"]
        )


class Float32RequestTest(unittest.TestCase):
    def test_builds_the_same_subject_at_float32_and_leaves_the_request_itself_alone(self):
        request = {
            "subject": {
                "id": "m@bf16",
                "model": {"builder": "torchvision", "name": "resnet18", "seed": 3, "dtype": "bfloat16"},
                "inputs": {"kind": "image"},
            }
        }
        out = pc.float32_request(request)
        self.assertEqual(
            out["subject"]["model"], {"builder": "torchvision", "name": "resnet18", "seed": 3, "dtype": "float32"}
        )
        self.assertEqual(request["subject"]["model"]["dtype"], "bfloat16")


if __name__ == "__main__":
    unittest.main()
