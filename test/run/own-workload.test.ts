// Your own workload, run as a user runs it: a model file beside the spec (a block none of the builders make,
// a residual, a site name of its own), the same model with a state_dict the test saved, and one that returns
// its own inputs. Real processes, real torch, real nnsight, torchvision fx and torchlens. A saved decoder and
// the dtype axis are in own-workload-decoder.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, testPython, tmpdir, write } from '../helpers.ts';
import { cells, expectedDigest, PROTOCOL } from './own-workload-fixtures.ts';

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

let own: Results;
let ownDir: string;

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
}, 2_000_000);

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
