"""text.py: prompts tokenized, left-padded with the pad id, the padding mask applied by the subject's own forward
(a padded prompt's tokens come out as the prompt alone gives them), a corrupted input keeping the padding, the
tokenizer read from a save_pretrained directory, and the refusals."""

import tempfile
import unittest

import torch

from benchgrid_harness import drawn, exactness, subjects, witnesses
from benchgrid_harness.errors import HarnessError

PROMPTS = ["The cat sat on the mat.", "Hi", "A somewhat longer prompt, with more words in it than the others."]
GPT2 = {"n_layer": 2, "n_embd": 32, "n_head": 2, "vocab_size": 300, "n_positions": 128}


def subject(tokenizer=None, prompts=PROMPTS, padding_side="left", batch_size=2):
    return {
        "id": "s",
        "sites": {"block": "transformer.h.0"},
        "model": {"builder": "transformers", "name": "gpt2", "seed": 0, "config": dict(GPT2)},
        "inputs": {
            "kind": "text",
            "seed": 0,
            "prompts": list(prompts),
            "tokenizer": tokenizer or {"kind": "bytes"},
            "padding_side": padding_side,
            "batch_size": batch_size,
        },
    }


def word_tokenizer_dir(folder):
    """A word-level tokenizer saved with save_pretrained, as a user's own tokenizer directory would be."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace
    from transformers import PreTrainedTokenizerFast

    words = sorted({w for p in PROMPTS for w in p.replace(",", " , ").replace(".", " . ").split()})
    vocab = {"<pad>": 0, "<unk>": 1, **{w: i + 2 for i, w in enumerate(words)}}
    backend = Tokenizer(WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>").save_pretrained(folder)
    return folder


class TextInputsTest(unittest.TestCase):
    def test_prompts_are_left_padded_with_the_pad_id_and_recorded(self):
        built = subjects.build_subject(subject(), torch.device("cpu"))
        lengths = [len(p.encode("utf-8")) for p in PROMPTS]
        self.assertEqual(list(built.inputs.shape), [3, max(lengths)])
        self.assertEqual(
            built.inputs[1, : max(lengths) - 2].unique().tolist(), [256], "the short prompt is left-padded"
        )
        self.assertEqual(built.inputs[1, -2:].tolist(), list(b"Hi"))
        self.assertEqual([list(b.shape) for b in built.batches], [[2, max(lengths)], [1, max(lengths)]])
        tokens = built.record["tokens"]
        self.assertEqual(
            (tokens["prompts"], tokens["lengths"], tokens["pad_id"], tokens["padding_side"]), (3, lengths, 256, "left")
        )
        self.assertEqual(len(tokens["sha256"]), 64)

    def test_the_subjects_forward_masks_the_padding(self):
        built = subjects.build_subject(subject(), torch.device("cpu"))
        with torch.no_grad():
            padded = built.model(built.inputs)
            alone = built.model(torch.tensor([list(b"Hi")]))
        self.assertTrue(
            torch.allclose(padded[1, -2:], alone[0], atol=1e-5), "the padded prompt's logits are the prompt's own"
        )
        unmasked = subjects.native_model(built.model)(input_ids=built.inputs, use_cache=False).logits
        self.assertFalse(torch.allclose(unmasked[1, -2:], alone[0], atol=1e-3), "without the mask they are not")

    def test_right_padding_puts_the_tokens_first(self):
        built = subjects.build_subject(subject(padding_side="right"), torch.device("cpu"))
        self.assertEqual(built.inputs[1, :2].tolist(), list(b"Hi"))
        self.assertEqual(built.record["tokens"]["padding_side"], "right")

    def test_a_corrupted_input_keeps_the_padding_and_never_draws_the_pad_id(self):
        built = subjects.build_subject(subject(), torch.device("cpu"))
        corrupted = drawn.corrupted(1, built.inputs, {"kind": "text"}, pad=256, vocab=300)
        self.assertTrue(torch.equal(corrupted == 256, built.inputs == 256))
        self.assertFalse(torch.equal(corrupted, built.inputs))

    def test_a_saved_tokenizer_directory_is_loaded(self):
        with tempfile.TemporaryDirectory() as folder:
            built = subjects.build_subject(
                subject({"kind": "pretrained", "path": word_tokenizer_dir(folder)}), torch.device("cpu")
            )
        self.assertEqual(built.record["tokens"]["pad_id"], 0)
        self.assertEqual(int((built.inputs[1] != 0).sum()), 1, "'Hi' is one word")

    def test_the_witness_tells_the_subjects_tokens_from_others(self):
        built = subjects.build_subject(subject(), torch.device("cpu"))
        model, final = built.model, witnesses.find_final_module(built.model, built.inputs)
        seen, _ = witnesses.observe(
            lambda: model(built.inputs), model, final, torch.no_grad(), torch.device("cpu"), [built.inputs]
        )
        self.assertEqual(seen["tokens"], "same")
        other = built.inputs.clone()
        other[:, -1] = 7
        seen, _ = witnesses.observe(
            lambda: model(other), model, final, torch.no_grad(), torch.device("cpu"), [built.inputs]
        )
        self.assertEqual(seen["tokens"], "other")
        self.assertIn(
            "embeds other token ids than the subject's",
            witnesses.differences(seen, {"forwards": 1, "parameter_grads": False}, None),
        )
        both = torch.cat([other, built.inputs])  # the clean run batched after another one, as nnsight's patching does
        seen, _ = witnesses.observe(
            lambda: model(both), model, final, torch.no_grad(), torch.device("cpu"), [built.inputs]
        )
        self.assertEqual(seen["tokens"], "same")

    def test_exactness_leaves_out_the_padded_positions_only(self):
        padded = torch.tensor([[True, False, False], [False, False, False]])
        want = torch.zeros(2, 3, 4)
        got = want.clone()
        got[0, 0] = 5.0
        self.assertEqual(exactness.compare(got, want, "hooks", 0, 0, padded)["verdict"], "bit")
        got[0, 1] = 5.0
        self.assertEqual(exactness.compare(got, want, "hooks", 0, 0, padded)["verdict"], "mismatch")
        other = torch.ones(2, 5)  # a generation's tokens: not laid out like the prompts, compared whole
        self.assertEqual(exactness.compare(other, torch.zeros(2, 5), "hooks", 0, 0, padded)["verdict"], "mismatch")

    def test_refusals(self):
        with tempfile.TemporaryDirectory() as folder:
            words = {"kind": "pretrained", "path": word_tokenizer_dir(folder)}
            with self.assertRaisesRegex(HarnessError, "prompt 2 holds the pad id 0"):
                subjects.build_subject(subject(words, prompts=["Hi", "Hi <pad>"]), torch.device("cpu"))
        small = subject()
        small["model"]["config"]["vocab_size"] = 200
        with self.assertRaisesRegex(HarnessError, "embedding has 200 rows"):
            subjects.build_subject(small, torch.device("cpu"))
        with self.assertRaisesRegex(HarnessError, "model has no save_pretrained directory"):
            subjects.build_subject(subject({"kind": "model"}), torch.device("cpu"))


if __name__ == "__main__":
    unittest.main()
