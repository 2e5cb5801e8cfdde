"""effect.py: the effect-size guard calls a write that stays within the exactness tolerance `vacuous`, and the
task-level figures of decoder outputs (top-1 agreement, total-variation distance, where generated tokens part)
are what a reader of logits and text would count."""

import unittest

import torch

from benchgrid_harness import effect, exactness
from benchgrid_harness.context import Context
from benchgrid_harness.errors import HarnessError

RTOL, ATOL = 1e-5, 1e-6


def logits(*rows):
    """A [1, positions, vocab] logits tensor from rows of numbers."""
    return torch.tensor([rows], dtype=torch.float32)


class LogitsAgreementTest(unittest.TestCase):
    def test_identical_logits_agree_everywhere_at_no_distance(self):
        x = torch.randn(2, 4, 9)
        self.assertEqual(effect.logits_agreement(x, x.clone()), {"top1_agreement": 1.0, "tv_distance": 0.0})

    def test_top1_counts_the_positions_whose_argmax_is_the_same(self):
        got = logits([0.0, 5.0], [5.0, 0.0], [0.0, 5.0], [1.0, 0.0])
        want = logits([0.0, 5.0], [5.0, 0.0], [5.0, 0.0], [0.0, 1.0])
        self.assertEqual(effect.logits_agreement(got, want)["top1_agreement"], 0.5)

    def test_tv_is_half_the_l1_distance_of_the_softmaxes_averaged_over_positions(self):
        # Position 0: softmax [0.5, 0.5] against [0.5, 0.5] (TV 0); position 1: near one-hot on opposite tokens (TV ~1).
        got, want = logits([0.0, 0.0], [100.0, 0.0]), logits([0.0, 0.0], [0.0, 100.0])
        self.assertAlmostEqual(effect.logits_agreement(got, want)["tv_distance"], 0.5, places=9)

    def test_many_positions_give_the_figures_of_all_at_once(self):
        generator = torch.Generator().manual_seed(0)
        got, want = torch.randn(3, 1000, 6, generator=generator), torch.randn(3, 1000, 6, generator=generator)
        flat_g, flat_w = got.reshape(-1, 6).double(), want.reshape(-1, 6).double()
        tv = 0.5 * (flat_g.softmax(-1) - flat_w.softmax(-1)).abs().sum(-1).mean()
        figures = effect.logits_agreement(got, want)
        self.assertAlmostEqual(figures["tv_distance"], float(tv), places=12)
        self.assertEqual(figures["top1_agreement"], float((flat_g.argmax(-1) == flat_w.argmax(-1)).double().mean()))

    def test_padded_positions_are_left_out(self):
        got = logits([0.0, 5.0], [0.0, 5.0])
        want = logits([0.0, 5.0], [5.0, 0.0])
        padded = torch.tensor([[False, True]])
        self.assertEqual(effect.logits_agreement(got, want, padded)["top1_agreement"], 1.0)

    def test_outputs_that_cannot_be_lined_up_have_no_figures(self):
        none = {"top1_agreement": None, "tv_distance": None}
        self.assertEqual(effect.logits_agreement(torch.zeros(1, 3), torch.zeros(1, 4)), none)
        self.assertEqual(effect.logits_agreement([torch.zeros(3)], torch.zeros(3)), none)
        self.assertEqual(effect.logits_agreement(torch.tensor([1.0, float("nan")]), torch.zeros(2)), none)


class TokensAgreementTest(unittest.TestCase):
    PROMPT = torch.tensor([[7, 8], [9, 10]])

    def generation(self, *new):
        return torch.cat([self.PROMPT, torch.tensor(new).T], dim=1)

    def test_the_same_tokens_agree_and_never_part(self):
        x = self.generation([1, 2], [3, 4], [5, 6])
        self.assertEqual(effect.tokens_agreement(x, x.clone(), 2), {"top1_agreement": 1.0, "first_divergence": None})

    def test_the_first_new_token_where_any_sequence_parts_and_the_share_that_agree(self):
        got = self.generation([1, 2], [3, 4], [5, 6], [7, 8])
        want = self.generation([1, 2], [3, 0], [5, 6], [0, 0])
        self.assertEqual(effect.tokens_agreement(got, want, 2), {"top1_agreement": 5 / 8, "first_divergence": 1})

    def test_other_lengths_have_no_figures(self):
        got, want = self.generation([1, 2]), self.generation([1, 2], [3, 4])
        self.assertEqual(effect.tokens_agreement(got, want, 2), {"top1_agreement": None, "first_divergence": None})


class GuardTest(unittest.TestCase):
    def test_a_write_that_moves_the_logits_is_not_vacuous_and_says_how_far(self):
        plain = torch.zeros(1, 3, 5)
        plain[..., 0] = 1.0
        written = plain.clone()
        written[0, 1, 4] += 50.0
        figures = effect.guard(written, plain, "logits", RTOL, ATOL)
        self.assertFalse(figures["vacuous"])
        self.assertAlmostEqual(figures["max_abs_diff"], 50.0, places=4)
        self.assertLess(figures["top1_agreement"], 1.0)
        self.assertGreater(figures["tv_distance"], 0.0)

    def test_a_write_within_the_exactness_tolerance_is_vacuous(self):
        plain = torch.randn(2, 10)
        for written in (plain.clone(), plain + 1e-8):
            figures = effect.guard(written, plain, "logits", RTOL, ATOL)
            self.assertTrue(figures["vacuous"], figures)
            self.assertLess(figures["max_abs_diff"], ATOL)

    def test_the_tolerance_is_the_one_that_decides_close(self):
        plain = torch.zeros(4)
        written = plain + 1e-3
        self.assertFalse(effect.guard(written, plain, None, RTOL, ATOL)["vacuous"])
        self.assertTrue(effect.guard(written, plain, None, RTOL, 1e-2)["vacuous"])

    def test_generated_tokens_are_vacuous_only_when_every_token_is_the_same(self):
        plain = torch.tensor([[1, 2, 30000, 4]])
        moved = torch.tensor([[1, 2, 30001, 4]])
        # rtol * 30000 would call a neighbouring token id close: tokens are compared exactly.
        figures = effect.guard(moved, plain, "tokens", 1e-4, 1e-5, None, 2)
        self.assertEqual(
            figures, {"max_abs_diff": None, "vacuous": False, "top1_agreement": 0.5, "first_divergence": 0}
        )
        self.assertTrue(effect.guard(plain.clone(), plain, "tokens", 1e-4, 1e-5, None, 2)["vacuous"])

    def test_a_numbers_output_has_no_task_level_figures(self):
        self.assertEqual(
            set(effect.guard(torch.ones(3), torch.zeros(3), None, RTOL, ATOL)), {"max_abs_diff", "vacuous"}
        )


class JudgedTest(unittest.TestCase):
    def exact(self, verdict):
        return {"verdict": verdict, "max_abs_diff": 0.0, "reference": "hooks", "rtol": RTOL, "atol": ATOL}

    def test_agreement_with_a_write_that_does_not_move_the_output_is_vacuous(self):
        guard = {"max_abs_diff": 0.0, "vacuous": True}
        for verdict in ("bit", "close"):
            out = effect.judged(self.exact(verdict), guard, None)
            self.assertEqual((out["verdict"], out["effect"]), ("vacuous", guard))

    def test_a_mismatch_stays_a_mismatch_and_a_moving_write_keeps_the_verdict(self):
        self.assertEqual(
            effect.judged(self.exact("mismatch"), {"max_abs_diff": 0.0, "vacuous": True}, None)["verdict"], "mismatch"
        )
        self.assertEqual(
            effect.judged(self.exact("bit"), {"max_abs_diff": 2.0, "vacuous": False}, None)["verdict"], "bit"
        )

    def test_a_contract_that_does_not_write_records_no_effect(self):
        out = effect.judged(self.exact("close"), None, {"top1_agreement": 1.0, "tv_distance": 0.0})
        self.assertEqual((out["verdict"], out["effect"], out["agreement"]["top1_agreement"]), ("close", None, 1.0))


class UnwrittenTest(unittest.TestCase):
    def context(self, **fields):
        model = torch.nn.Linear(3, 4)
        base = dict(
            model=model,
            inputs=torch.randn(2, 3),
            batches=[],
            site=None,
            site_module=None,
            params={},
            device=torch.device("cpu"),
            direction=None,
        )
        return Context(**{**base, **fields})

    def test_the_plain_forward_and_one_per_strength(self):
        ctx = self.context(strengths=[0.5, 1.0, 2.0])
        with torch.no_grad():
            plain = ctx.model(ctx.inputs)
            self.assertTrue(torch.equal(effect.unwritten("forward", ctx, None), plain))
            self.assertTrue(torch.equal(effect.unwritten("forward_per_strength", ctx, None), torch.stack([plain] * 3)))

    def test_unsteered_reruns_the_reference_at_strength_zero_without_touching_the_ctx(self):
        ctx = self.context(params={"strength": 4.0, "site": "x"})
        seen = []

        def reference(c):
            seen.append(dict(c.params))
            c.note("a note from the rerun")
            return lambda: torch.tensor([c.params["strength"]])

        self.assertEqual(effect.unwritten("unsteered", ctx, reference).tolist(), [0.0])
        self.assertEqual(seen, [{"strength": 0.0, "site": "x"}])
        self.assertEqual((ctx.params["strength"], ctx.notes), (4.0, []))

    def test_an_unknown_form_is_an_error_not_a_silent_pass(self):
        with self.assertRaisesRegex(HarnessError, "contract.writes: 'nothing'"):
            effect.facts({"writes": "nothing"})
        with self.assertRaisesRegex(HarnessError, "contract.output: 'text'"):
            effect.facts({"output": "text"})
        self.assertEqual(effect.facts({"kind": "single_module_output"}), (None, None))


class IntegerExactnessTest(unittest.TestCase):
    def test_token_ids_are_compared_exactly_whatever_the_tolerance(self):
        verdict, diff = exactness.verdict(torch.tensor([30001]), torch.tensor([30000]), 1e-4, 1e-5)
        self.assertEqual((verdict, diff), ("mismatch", 1.0))


if __name__ == "__main__":
    unittest.main()
