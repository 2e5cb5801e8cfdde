// Your own decoder, run as a user runs it: a transformers model saved with save_pretrained and loaded by
// `weights: DIR`, and a decoder in bfloat16 through the dtype axis. Real processes, real torch, real nnsight
// and TransformerLens.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, testPython, tmpdir, write } from '../helpers.ts';
import { DECODER_TOOLS, lastPositionPatching } from './decoder-spec.ts';
import { cells, expectedDigest, PROTOCOL } from './own-workload-fixtures.ts';

const DECODER_SPEC = (weights: string) => `benchgrid: 1
name: own_decoder
title: a saved decoder
device: cpu
${PROTOCOL}
subjects:
  saved:
    label: a tiny GPT-2, saved
    model: { builder: transformers, seed: 0, weights: ${weights} }
    inputs: { kind: tokens, shape: [1, 8], vocab: 100, seed: 0 }
    sites: { block: transformer.h.1 }
  tiny:
    label: a tiny GPT-2
    model: { builder: transformers, name: gpt2, seed: 0, config: { n_layer: 2, n_embd: 32, n_head: 2, vocab_size: 100, n_positions: 32 } }
    dtypes: [float32, bfloat16]
    inputs: { kind: tokens, shape: [1, 8], vocab: 100, seed: 0 }
    sites: { block: transformer.h.1 }
contracts:
  single_module_output: { site: block }
${lastPositionPatching(7)}
${DECODER_TOOLS}
groups:
  A:
    reference: hooks
    subjects: [saved]
    contracts: [single_module_output]
    tools: [raw, hooks, nnsight]
  D:
    reference: hooks
    subjects: [tiny]
    contracts: [single_module_output, activation_patching]
    tools: [raw, hooks, nnsight, transformer_lens]
`;
let decoder: Results[];
let decoderOut: string;
let pretrained: string;

beforeAll(async () => {
  const python = await testPython();
  const decDir = tmpdir('benchgrid-decoder-');
  pretrained = path.join(decDir, 'tiny-gpt2');
  const made = await execa(
    python,
    [
      '-c',
      [
        'import sys, torch',
        'from transformers import GPT2Config, GPT2LMHeadModel',
        'torch.manual_seed(7)',
        'model = GPT2LMHeadModel(GPT2Config(n_layer=2, n_embd=32, n_head=2, vocab_size=100, n_positions=32))',
        'model.save_pretrained(sys.argv[1])',
      ].join('\n'),
      pretrained,
    ],
    { reject: false },
  );
  expect(made.exitCode, made.stderr).toBe(0);
  const decSpec = write(decDir, 'decoder.yaml', DECODER_SPEC('tiny-gpt2'));
  decoder = [];
  // Two runs from the same directory: the same digest, the same verdicts.
  for (const name of ['first', 'second']) {
    decoderOut = path.join(decDir, name);
    const only = name === 'second' ? ['--only', 'A/*/*/*'] : [];
    const d = await cli(['run', decSpec, '--out', decoderOut, '--python', python, ...only], { timeout: 900_000 });
    expect(d.code, d.stderr.slice(-3000)).toBe(0);
    decoder.push(loadResults(path.join(decoderOut, 'results.json')));
  }
}, 2_000_000);

describe('a transformers model saved with save_pretrained', () => {
  it('loads by weights: DIR, and the results carry the digest of what it loaded', () => {
    expect(decoder[0].subjects.saved.meta?.model).toEqual({
      builder: 'transformers',
      name: null,
      dtype: 'float32',
      weights: { kind: 'pretrained', source: pretrained, sha256: expectedDigest(pretrained) },
    });
    expect(cells(decoder[0], 'A', 'saved').map((c) => c.status)).toEqual(['ok', 'ok', 'ok']);
  });

  it('gives the same digest and the same exactness in a second run from the same directory', () => {
    expect(decoder[1].subjects.saved.meta?.model).toEqual(decoder[0].subjects.saved.meta?.model);
    const verdicts = (r: Results) => cells(r, 'A', 'saved').map((c) => [c.tool, c.exact]);
    expect(verdicts(decoder[1])).toEqual(verdicts(decoder[0]));
    expect(verdicts(decoder[0])).toContainEqual(['nnsight', 'bit']);
  });
});

describe('a decoder in bfloat16 through the dtype axis', () => {
  it('runs one subject per dtype, each read and patched by hooks, nnsight and TransformerLens', () => {
    for (const subject of ['tiny@fp32', 'tiny@bf16']) {
      expect(cells(decoder[0], 'D', subject).map((c) => `${c.contract}/${c.tool}: ${c.status}`)).toEqual([
        'single_module_output/raw: ok',
        'single_module_output/hooks: ok',
        'single_module_output/nnsight: ok',
        'single_module_output/transformer_lens: ok',
        'activation_patching/raw: ok',
        'activation_patching/hooks: ok',
        'activation_patching/nnsight: ok',
        'activation_patching/transformer_lens: ok',
      ]);
    }
    expect(decoder[0].subjects['tiny@bf16'].meta?.model?.dtype).toBe('bfloat16');
    expect(decoder[0].subjects['tiny@fp32'].meta?.model?.dtype).toBe('float32');
  });

  it('judges exactness at the bfloat16 tolerance in bf16 and the protocol one in float32, and says the dtype in the report', () => {
    const first = path.join(path.dirname(decoderOut), 'first');
    const judged = (subject: string) => {
      const result = JSON.parse(
        fs.readFileSync(
          path.join(first, 'processes', `D+single_module_output+transformer_lens+${subject}`, 'time-0.result.json'),
          'utf8',
        ),
      );
      return { rtol: result.exact.rtol, atol: result.exact.atol, dtype: result.subject.dtype };
    };
    expect(judged('tiny@bf16')).toEqual({ rtol: 1.6e-2, atol: 1e-5, dtype: 'bfloat16' });
    expect(judged('tiny@fp32')).toEqual({ rtol: 1e-5, atol: 1e-6, dtype: 'float32' });
    // A bf16 cell beyond float32 rounding is re-run at float32 (the precision control): degraded where it agrees there.
    for (const c of cells(decoder[0], 'D', 'tiny@bf16').filter(
      (x) => x.tool === 'nnsight' || x.tool === 'transformer_lens',
    ))
      expect(['bit', 'close', 'degraded', 'mismatch']).toContain(c.exact);
    const md = fs.readFileSync(path.join(first, 'report.md'), 'utf8');
    expect(md).toMatch(/a tiny GPT-2, bfloat16, random weights/);
    expect(md).toMatch(/a tiny GPT-2, float32, random weights/);
  });
});
