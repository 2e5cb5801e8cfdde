"""witnesses.py on a tiny torch model: the forwards and parameter gradients one untimed call really did,
counted by torch's global module hooks that are installed for that call only."""

import copy
import types
import unittest

import torch
from torch import nn

from benchgrid_harness import witnesses

CPU = torch.device("cpu")
HOOKS = torch.nn.modules.module


def tiny():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))


def installed_hooks():
    return len(HOOKS._global_forward_pre_hooks), len(HOOKS._global_forward_hooks)


class FinalModuleTest(unittest.TestCase):
    def test_the_final_module_is_the_leaf_that_finishes_last_in_a_plain_forward(self):
        model = tiny()
        self.assertIs(witnesses.find_final_module(model, torch.randn(2, 4)), model[2])
        self.assertEqual(installed_hooks(), (0, 0))
        self.assertEqual([len(m._forward_hooks) for m in model.modules()], [0, 0, 0, 0], "its probe hooks are removed")


class ObserveTest(unittest.TestCase):
    def setUp(self):
        self.model = tiny()
        self.inputs = torch.randn(5, 4)
        self.final = witnesses.find_final_module(self.model, self.inputs)

    def observe(self, run, grad=False):
        return witnesses.observe(run, self.model, self.final, torch.enable_grad() if grad else torch.no_grad(), CPU)

    def test_one_forward_is_counted_once_with_no_gradients_and_the_results_bytes(self):
        seen, result = self.observe(lambda: self.model(self.inputs))
        self.assertEqual(seen, {"forwards": 1, "parameter_grads": False, "result_bytes": 5 * 2 * 4})
        self.assertTrue(torch.equal(result, self.model(self.inputs)), "the instruments change no output")

    def test_two_forwards_count_two_and_a_call_that_stops_at_a_site_counts_none(self):
        self.assertEqual(self.observe(lambda: [self.model(self.inputs), self.model(self.inputs)])[0]["forwards"], 2)
        self.assertEqual(self.observe(lambda: self.model[0](self.inputs))[0]["forwards"], 0)

    def test_a_backward_to_the_parameters_is_seen_and_stale_gradients_are_not(self):
        def backward():
            self.model(self.inputs).sum().backward()

        self.assertTrue(self.observe(backward, grad=True)[0]["parameter_grads"])
        for p in self.model.parameters():
            p.grad = torch.ones_like(p)
        self.assertFalse(
            self.observe(lambda: self.model(self.inputs))[0]["parameter_grads"],
            "gradients left by an earlier call are cleared before the witness call",
        )

    def test_a_tools_deep_copy_of_the_model_is_counted_like_the_model(self):
        twin = copy.deepcopy(self.model)

        def backward_on_copy():
            twin(self.inputs).sum().backward()

        seen, _ = self.observe(backward_on_copy, grad=True)
        self.assertEqual((seen["forwards"], seen["parameter_grads"]), (1, True))

    def test_the_hooks_are_removed_after_the_call_also_when_it_raises(self):
        before = installed_hooks()
        self.observe(lambda: self.model(self.inputs))
        self.assertEqual(installed_hooks(), before)

        def failing():
            self.model(self.inputs)
            raise RuntimeError("the tool failed in the witness call")

        with self.assertRaisesRegex(RuntimeError, "witness call"):
            self.observe(failing)
        self.assertEqual(installed_hooks(), before)

    def test_result_bytes_add_up_nested_tensors_and_ignore_the_rest(self):
        t = torch.zeros(3, dtype=torch.float64)
        self.assertEqual(witnesses.result_bytes({"a": (t, [t, "text"]), "b": None, "c": 7}), 2 * 3 * 8)
        self.assertEqual(witnesses.result_bytes(None), 0)


class DifferencesTest(unittest.TestCase):
    CTX = types.SimpleNamespace(strengths=[0.5, 1.0, 2.0], batches=[0, 1])

    def differ(self, forwards, grads, work):
        return witnesses.differences(
            {"forwards": forwards, "parameter_grads": grads, "result_bytes": 0}, work, self.CTX
        )

    def test_agreeing_work_and_a_contract_without_work_have_no_difference(self):
        self.assertEqual(self.differ(1, False, {"forwards": 1, "parameter_grads": False}), [])
        self.assertEqual(self.differ(9, True, None), [])

    def test_each_difference_in_forwards_is_put_in_words(self):
        work = {"forwards": 1, "parameter_grads": False}
        self.assertEqual(self.differ(0, False, work), ["stops at the site"])
        self.assertEqual(self.differ(2, False, work), ["runs the forward twice"])
        self.assertEqual(
            self.differ(3, False, work), ["runs the model's last module 3 times where the contract needs 1"]
        )
        self.assertEqual(self.differ(1, False, {"forwards": 0, "parameter_grads": False}), ["runs the whole model"])

    def test_gradients_missing_or_extra_are_differences(self):
        self.assertEqual(self.differ(1, False, {"forwards": 1, "parameter_grads": True}), ["no parameter gradients"])
        self.assertEqual(self.differ(1, True, {"forwards": 1, "parameter_grads": False}), ["fills parameter gradients"])

    def test_forwards_per_strength_or_batch_are_resolved_for_the_cell(self):
        self.assertEqual(self.differ(3, False, {"forwards": "strengths", "parameter_grads": False}), [])
        self.assertEqual(
            self.differ(3, False, {"forwards": "batches", "parameter_grads": False}),
            ["runs the model's last module 3 times where the contract needs 2"],
        )
        self.assertEqual(
            witnesses.required({"forwards": "strengths", "parameter_grads": 1}, self.CTX),
            {"forwards": 3, "parameter_grads": True},
        )
        self.assertIsNone(witnesses.required(None, self.CTX))


if __name__ == "__main__":
    unittest.main()
