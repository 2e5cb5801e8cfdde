// Text inputs, run as a user runs them: three prompts of different lengths tokenized by a tokenizer directory
// the test saves (as a user's own tokenizer would be), left-padded and masked, through the decoder read,
// patching and steered-generation contracts for hooks, nnsight and TransformerLens. Real processes, real
// transformers, nnsight and TransformerLens.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, testPython, tmpdir, write } from '../helpers.ts';
import { DECODER_TOOLS, lastPositionPatching } from './decoder-spec.ts';

const PROMPTS = ['the cat sat on the mat', 'hello', 'a much longer prompt about the cat and the mat and the hat'];

// A word-level tokenizer over the prompts' words, saved with save_pretrained; <pad> is id 0.
const TOKENIZER = `
import sys
from tokenizers import Tokenizer
from tokenizers.models import WordLevel
from tokenizers.pre_tokenizers import Whitespace
from transformers import PreTrainedTokenizerFast
words = sorted({w for line in sys.argv[2:] for w in line.split()})
vocab = {"<pad>": 0, "<unk>": 1, **{w: i + 2 for i, w in enumerate(words)}}
backend = Tokenizer(WordLevel(vocab, unk_token="<unk>"))
backend.pre_tokenizer = Whitespace()
PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="<unk>", pad_token="<pad>").save_pretrained(sys.argv[1])
`;

const SPEC = `benchgrid: 1
name: text_inputs
title: padded prompts
device: cpu
protocol: { warmups: 1, samples: 3, processes: 2, min_samples: 2, budget_s_per_cell: 3, memory_runs: 0, aa_pairs: 0, timeout_s: 300 }
subjects:
  prompts:
    label: tiny GPT-2 on three prompts
    model: { builder: transformers, name: gpt2, seed: 0, config: { n_layer: 2, n_embd: 32, n_head: 2, vocab_size: 64, n_positions: 64 } }
    inputs: { kind: text, tokenizer: tok, prompts_file: prompts.txt }
    sites: { block: transformer.h.1 }
contracts:
  single_module_output: { site: block }
${lastPositionPatching(12)}
  steered_generation: { site: block, params: { vector_seed: 2, strength: 4 } }
${DECODER_TOOLS}
groups:
  A:
    reference: hooks
    subjects: [prompts]
    contracts: [single_module_output, activation_patching, steered_generation]
    tools: [raw, hooks, nnsight, transformer_lens]
`;

let dir: string;
let results: Results;

beforeAll(async () => {
  const python = await testPython();
  dir = tmpdir('benchgrid-text-');
  const saved = await execa(python, ['-c', TOKENIZER, path.join(dir, 'tok'), ...PROMPTS], { reject: false });
  expect(saved.exitCode, saved.stderr).toBe(0);
  write(dir, 'prompts.txt', `${PROMPTS.join('\n')}\n\n`);
  const spec = write(dir, 'text.yaml', SPEC);
  const r = await cli(['run', spec, '--out', path.join(dir, 'run'), '--python', python], { timeout: 900_000 });
  expect(r.code, r.stderr.slice(-3000)).toBe(0);
  results = loadResults(path.join(dir, 'run', 'results.json'));
}, 1_000_000);

describe('text inputs: prompts of different lengths, padded and masked', () => {
  it('runs read, patching and steered generation for raw, hooks, nnsight and TransformerLens: all ok, each tool as hooks', () => {
    expect(results.cells.map((c) => `${c.contract}/${c.tool}: ${c.status}`).sort()).toEqual(
      ['single_module_output', 'activation_patching', 'steered_generation']
        .flatMap((k) => ['raw', 'hooks', 'nnsight', 'transformer_lens'].map((t) => `${k}/${t}: ok`))
        .sort(),
    );
    for (const c of results.cells.filter((x) => x.tool === 'nnsight' || x.tool === 'transformer_lens'))
      expect(['bit', 'close'], c.id).toContain(c.exact);
  });

  it("records the prompts as tokenized: three prompts, their lengths, left padding with the tokenizer's pad id", () => {
    const tokens = results.subjects.prompts.meta!.model!.tokens!;
    expect(tokens).toMatchObject({
      prompts: 3,
      lengths: PROMPTS.map((p) => p.split(' ').length),
      padded_to: 13,
      padding_side: 'left',
      pad_id: 0,
    });
    expect(tokens.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("witnesses that every tool embedded exactly the subject's token ids, in every process", () => {
    const seen = results.cells
      .filter((c) => c.tool !== 'raw')
      .flatMap((c) => (c.work?.witnesses ?? []).map((w) => `${c.id}: ${w.tokens}`));
    expect(seen.length).toBeGreaterThanOrEqual(9 * 2);
    expect(seen.filter((s) => !s.endsWith(': same'))).toEqual([]);
    expect(
      results.cells.filter((c) => (c.work?.differs ?? []).some((d) => d.includes('token'))).map((c) => c.id),
    ).toEqual([]);
  });

  it('says in the report what the inputs were and that padded positions are not compared', () => {
    const md = fs.readFileSync(path.join(dir, 'run', 'report.md'), 'utf8');
    expect(md).toMatch(
      /Inputs: 3 prompts of 1-13 tokens, left-padded to 13 with id 0 and masked \(tokenizer [^;]*tok; token ids sha256 [0-9a-f]{12}\)/,
    );
    expect(md).toMatch(/padded positions are the output of no token/);
  });
});
