// Your own workload, run as a user runs it: a model file beside the spec (a block none of the builders make,
// a residual, a site name of its own), the same model with a state_dict the test saved, one that returns its
// own inputs, a transformers model saved with save_pretrained and loaded by `weights: DIR`, and a decoder in
// bfloat16 through the dtype axis. Real processes, real torch, real nnsight, torchvision fx, torchlens and
// TransformerLens.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, testPython, tmpdir, write } from '../helpers.ts';
import { DECODER_TOOLS, lastPositionPatching } from './decoder-spec.ts';

const MODEL = `"""A residual stack of gated blocks: nothing torchvision or transformers builds."""
import torch
from torch import nn


class GatedBlock(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.value = nn.Linear(width, width)
        self.gate = nn.Linear(width, width)

    def forward(self, x):
        h = self.norm(x)
        return x + self.value(h) * torch.sigmoid(self.gate(h))


class Net(nn.Module):
    def __init__(self, width, depth):
        super().__init__()
        self.embed = nn.Linear(12, width)
        self.trunk = nn.ModuleDict({f"stage_{i}": GatedBlock(width) for i in range(depth)})
        self.readout = nn.Linear(width, 3)

    def forward(self, x):
        x = self.embed(x)
        for block in self.trunk.values():
            x = block(x)
        return self.readout(x)


def build(width=16, depth=3):
    return Net(width, depth)


def build_with_inputs(width=16, depth=3):
    model = build(width, depth)
    data = torch.randn(6, 12)
    return model, {"batch": data[:2].clone(), "dataset": list(torch.split(data, 2))}
`;

const PROTOCOL =
  'protocol: { warmups: 1, samples: 3, processes: 2, min_samples: 2, budget_s_per_cell: 4, memory_runs: 0, aa_pairs: 0, timeout_s: 300 }';

const OWN_SPEC = `benchgrid: 1
name: own_workload
title: a model of my own
device: cpu
${PROTOCOL}
subjects:
  gated:
    label: gated residual stack
    model: { builder: python, name: "models/gated.py:build", seed: 0, config: { width: 16, depth: 3 } }
    inputs: { kind: image, shape: [2, 12], seed: 0, stimuli: 6, batch_size: 2 }
    sites: { gate_site: trunk.stage_1.gate }
  trained:
    label: gated residual stack, saved weights
    model: { builder: python, name: "models/gated.py:build", seed: 5, config: { width: 16, depth: 3 }, weights: weights/gated.pt }
    inputs: { kind: image, shape: [2, 12], seed: 0 }
    sites: { gate_site: trunk.stage_1.gate }
  returned:
    label: gated residual stack, its own inputs
    model: { builder: python, name: "models/gated.py:build_with_inputs", seed: 0 }
    inputs: { kind: builder, seed: 0 }
    sites: { gate_site: trunk.stage_1.gate }
contracts:
  single_module_output: { site: gate_site }
  replacement_edit: { site: gate_site }
  same_site_gradient: { site: gate_site, params: { target: 0 } }
  ordered_dataset_features: { site: gate_site }
tools:
  raw: { label: plain forward }
  hooks: { label: forward hooks }
  nnsight: { label: nnsight }
  tv_fx: { label: torchvision fx }
  tl_trace_sparse: { label: torchlens }
groups:
  A:
    reference: hooks
    subjects: [gated]
    contracts: [single_module_output, replacement_edit, same_site_gradient, ordered_dataset_features]
    tools: [raw, hooks, nnsight, tv_fx, tl_trace_sparse]
    unsupported:
      - tools: [tv_fx]
        contracts: [replacement_edit]
        reason: a feature extractor reads outputs
  W:
    reference: hooks
    subjects: [trained, returned]
    contracts: [single_module_output, ordered_dataset_features]
    tools: [raw, hooks, nnsight]
`;

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

let own: Results;
let ownDir: string;
let decoder: Results[];
let decoderOut: string;
let pretrained: string;

/** The digest the harness records: sha256 over each file's path (relative, sorted) and bytes, NUL after each. */
function expectedDigest(root: string): string {
  const files = fs.statSync(root).isFile()
    ? [['', root]]
    : (fs.readdirSync(root, { recursive: true }) as string[])
        .map((f) => [f.split(path.sep).join('/'), path.join(root, f)])
        .filter(([, f]) => fs.statSync(f).isFile())
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const h = crypto.createHash('sha256');
  for (const [rel, full] of files)
    h.update(Buffer.concat([Buffer.from(rel, 'utf8'), Buffer.from([0]), fs.readFileSync(full), Buffer.from([0])]));
  return `sha256:${h.digest('hex')}`;
}

beforeAll(async () => {
  const python = await testPython();
  ownDir = tmpdir('benchgrid-own-');
  write(ownDir, 'models/gated.py', MODEL);
  fs.mkdirSync(path.join(ownDir, 'weights'));
  // Weights of the model built from another seed than the spec's, so loading them visibly changes it.
  const saved = await execa(
    python,
    [
      '-c',
      [
        'import sys, torch',
        `sys.path.insert(0, ${JSON.stringify(path.join(ownDir, 'models'))})`,
        'import gated',
        'torch.manual_seed(123)',
        `torch.save(gated.build(16, 3).state_dict(), ${JSON.stringify(path.join(ownDir, 'weights/gated.pt'))})`,
      ].join('\n'),
    ],
    { reject: false },
  );
  expect(saved.exitCode, saved.stderr).toBe(0);
  const spec = write(ownDir, 'own.yaml', OWN_SPEC);
  const out = path.join(ownDir, 'run');
  const r = await cli(['run', spec, '--out', out, '--python', python], { timeout: 900_000 });
  expect(r.code, r.stderr.slice(-3000)).toBe(0);
  own = loadResults(path.join(out, 'results.json'));

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

const cells = (r: Results, group: string, subject: string) =>
  r.cells.filter((c) => c.group === group && c.subject === subject);

describe('a model of your own, from a file beside the spec', () => {
  it('runs the read, edit, gradient and dataset contracts for raw, hooks, nnsight, torchvision fx and torchlens: all ok, compared cells bit-exact, every tool paired', () => {
    const mine = cells(own, 'A', 'gated');
    expect(mine.filter((c) => c.status !== 'unsupported').map((c) => `${c.contract}/${c.tool}: ${c.status}`)).toEqual(
      mine.filter((c) => c.status !== 'unsupported').map((c) => `${c.contract}/${c.tool}: ok`),
    );
    expect(mine.filter((c) => c.status === 'ok')).toHaveLength(19);
    for (const c of mine.filter((x) => x.status === 'ok' && x.tool !== 'raw' && x.tool !== 'hooks'))
      expect(c.exact, c.id).toBe('bit');
    for (const c of mine.filter((x) => x.status === 'ok' && x.tool !== 'raw')) expect(c.paired, c.id).toBeTruthy();
    // Every tool did the contract's work on the user's block (witnessed).
    expect(mine.filter((c) => c.status === 'ok' && (c.work?.differs.length ?? 0) > 0).map((c) => c.id)).toEqual([]);
  });

  it('records the model as built: the python builder and its function, float32, random weights', () => {
    expect(own.subjects.gated.meta?.model).toEqual({
      builder: 'python',
      name: 'models/gated.py:build',
      dtype: 'float32',
      weights: null,
    });
  });

  it('loads a state_dict file the user saved, records its digest, and every tool reads the loaded model exactly as hooks does', () => {
    const model = own.subjects.trained.meta!.model!;
    expect(model.weights).toEqual({
      kind: 'state_dict',
      source: path.join(ownDir, 'weights/gated.pt'),
      sha256: expectedDigest(path.join(ownDir, 'weights/gated.pt')),
    });
    const trained = cells(own, 'W', 'trained');
    expect(trained.map((c) => `${c.contract}/${c.tool}: ${c.status}`)).toEqual([
      'single_module_output/raw: ok',
      'single_module_output/hooks: ok',
      'single_module_output/nnsight: ok',
      'ordered_dataset_features/raw: ok',
      'ordered_dataset_features/hooks: ok',
      'ordered_dataset_features/nnsight: ok',
    ]);
    expect(trained.find((c) => c.tool === 'nnsight' && c.contract === 'single_module_output')!.exact).toBe('bit');
  });

  it('takes the inputs the builder returns with its model (kind: builder), the dataset contract its batches', () => {
    const returned = cells(own, 'W', 'returned');
    expect(returned.every((c) => c.status === 'ok')).toBe(true);
    expect(returned.filter((c) => c.tool === 'nnsight').map((c) => c.exact)).toEqual(['bit', 'bit']);
  });

  it('says the dtype and the weights in the report beside the model', () => {
    const md = fs.readFileSync(path.join(ownDir, 'run', 'report.md'), 'utf8');
    expect(md).toMatch(/gated residual stack, float32, random weights/);
    expect(md).toMatch(/gated residual stack, saved weights, float32, weights .*gated\.pt \(sha256:[0-9a-f]{12}\)/);
    expect(md).toMatch(/Model: python builder `models\/gated\.py:build`, in float32, random weights\./);
  });
});

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
