// The decoder specs as data: the CPU and GPU matrices are the same cells, every peer of the field is in them, and
// what a decoder spec may say (a transformers architecture, layered environments, number parameters) is checked
// with a position when it is wrong.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDeclaredSpec } from '../../src/spec/load.ts';
import { cli, ROOT, tmpdir, write } from '../helpers.ts';

interface PlannedCell {
  id: string;
  tool: string;
  contract: string;
  status: string;
  reason: string | null;
}

async function plan(spec: string): Promise<{ device: string; cells: PlannedCell[] }> {
  const r = await cli(['plan', path.join(ROOT, 'specs', spec), '--json']);
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { spec: unknown; cells: PlannedCell[] };
  const loaded = await loadDeclaredSpec(path.join(ROOT, 'specs', spec));
  return { device: loaded.device, cells: out.cells };
}

describe('specs/decoders_cpu.yaml and specs/decoders_gpu.yaml', () => {
  it('plan the same cell ids, on the CPU and on CUDA', async () => {
    const [cpu, gpu] = await Promise.all([plan('decoders_cpu.yaml'), plan('decoders_gpu.yaml')]);
    expect([cpu.device, gpu.device]).toEqual(['cpu', 'cuda']);
    expect(cpu.cells.map((c) => c.id).sort()).toEqual(gpu.cells.map((c) => c.id).sort());
    // Only the 1B Llama is reasoned out on the CPU; everything the GPU plans otherwise, the CPU plans too.
    const cpuPlanned = new Set(cpu.cells.filter((c) => c.status === 'planned').map((c) => c.id));
    const missing = gpu.cells.filter((c) => c.status === 'planned' && !cpuPlanned.has(c.id)).map((c) => c.id);
    expect(missing.length).toBeGreaterThan(0);
    expect(missing.filter((id) => !id.endsWith('/llama_1b'))).toEqual([]);
  });

  it('measure every peer of the field on at least three cells, and reason every other cell', async () => {
    const { cells } = await plan('decoders_cpu.yaml');
    const planned = (tool: string) => cells.filter((c) => c.tool === tool && c.status === 'planned').length;
    for (const tool of [
      'transformers',
      'nnsight',
      'nnterp',
      'pyvene',
      'transformer_lens',
      'sae_lens',
      'inseq',
      'captum',
      'tl_trace_sparse',
    ]) {
      expect(planned(tool), tool).toBeGreaterThanOrEqual(3);
    }
    expect(cells.filter((c) => c.status !== 'planned' && !c.reason)).toEqual([]);
    const kinds = new Set(cells.filter((c) => c.status === 'planned').map((c) => c.contract));
    for (const k of [
      'residual_cache',
      'attention_pattern',
      'activation_patching',
      'attribution_patching',
      'steered_generation',
      'sae_encode',
      'generated_token_attribution',
    ])
      expect(kinds.has(k), k).toBe(true);
    // Five architectures: GPT-2, Llama, GPT-NeoX, Qwen2 and Gemma, each planned on the CPU.
    for (const s of ['gpt2_small', 'smollm_135m', 'pythia_160m', 'qwen2_0_5b', 'gemma_2b'])
      expect(
        cells.some((c) => c.id.endsWith(`/${s}`) && c.status === 'planned'),
        s,
      ).toBe(true);
    expect(new Set(cells.map((c) => c.tool)).size).toBeGreaterThanOrEqual(11);
  });

  it('pin every peer, each in a layer over the one environment that holds torch', async () => {
    const spec = await loadDeclaredSpec(path.join(ROOT, 'specs/decoders_cpu.yaml'));
    const layered = Object.values(spec.environments).filter((e) => e.layer !== null);
    expect(layered.map((e) => e.id).sort()).toEqual(['decoders', 'inseq', 'nnterp', 'sae_lens']);
    const all = Object.values(spec.environments).flatMap((e) => e.requirements);
    for (const pin of ['transformers==5.24.0', 'pyvene==0.1.8', 'nnterp==1.3.0', 'sae-lens==6.54.12', 'inseq==0.7.1'])
      expect(all).toContain(pin);
    // The base is the other specs' `main`, byte for byte, so the cached torch is shared.
    const resnet = await loadDeclaredSpec(path.join(ROOT, 'specs/resnet18_cpu.yaml'));
    expect(spec.environments.main.requirements).toEqual(resnet.environments.main.requirements);
    expect(spec.defaultEnvironment).toBe('decoders');
  });
});

const DECODER = (
  model: string,
  inputs: string,
  environments = '',
  params = '{ vector_seed: 1, strength: 2 }',
) => `benchgrid: 1
name: dec
title: dec
device: cpu
${environments}subjects:
  lm:
    label: lm
    model: ${model}
    inputs: ${inputs}
    sites: { block: transformer.h.0 }
contracts:
  steered_generation: { site: block, params: ${params} }
tools:
  hooks: {}
groups:
  A: { reference: hooks, subjects: [lm], contracts: [steered_generation], tools: [hooks] }
`;
const GPT2 =
  '{ builder: transformers, name: gpt2, seed: 0, config: { n_layer: 1, n_embd: 8, n_head: 2, vocab_size: 100 } }';
const TOKENS = '{ kind: tokens, shape: [1, 4], vocab: 100, seed: 0 }';

describe('a decoder spec refuses hostile values with their position', () => {
  const dir = tmpdir();
  const validate = async (name: string, text: string) => cli(['validate', write(dir, name, text)]);

  it('accepts the well-formed spec these cases break', async () => {
    const r = await validate('ok.yaml', DECODER(GPT2, TOKENS));
    expect(r.code, r.stderr).toBe(0);
  });

  it('an architecture name that is not a transformers model_type', async () => {
    const r = await validate('arch.yaml', DECODER(GPT2.replace('name: gpt2', 'name: "../Llama; rm -rf"'), TOKENS));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /arch\.yaml:8:\d+ subjects\.lm\.model\.name: '\.\.\/Llama; rm -rf' is not a transformers architecture name/,
    );
  });

  it('a transformers subject without an architecture', async () => {
    const r = await validate('noarch.yaml', DECODER(GPT2.replace('name: gpt2, ', ''), TOKENS));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /noarch\.yaml:8:\d+ subjects\.lm\.model: a transformers model needs 'name', its architecture/,
    );
  });

  it('token ids beyond the model vocabulary', async () => {
    const r = await validate('vocab.yaml', DECODER(GPT2, TOKENS.replace('vocab: 100', 'vocab: 1000000')));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /vocab\.yaml:9:\d+ subjects\.lm\.inputs\.vocab: token ids are drawn from \[0, 1000000\), but the model's vocab_size is 100\. Set inputs\.vocab to at most 100\./,
    );
  });

  it('a number parameter that is not a finite number', async () => {
    for (const [value, shown] of [
      ['.nan', 'null'],
      ['"4"', '"4"'],
      ['[4]', '[4]'],
    ]) {
      const r = await validate('nan.yaml', DECODER(GPT2, TOKENS, '', `{ vector_seed: 1, strength: ${value} }`));
      expect(r.code, value).toBe(2);
      expect(r.stderr).toContain(`'strength' must be a number (got ${shown})`);
    }
  });

  it('an environment layered over one that is not declared, over itself, or with its own interpreter', async () => {
    const base = 'environments:\n  main: { requirements: [torch==2.14.1] }\n';
    const unknown = await validate(
      'over1.yaml',
      DECODER(GPT2, TOKENS, `${base}  peer: { over: mian, requirements: [pyvene==0.1.8] }\n`),
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /over1\.yaml:7:\d+ environments\.peer\.over: environment 'peer' is layered over 'mian', which is not declared\. Did you mean 'main'\?/,
    );
    const loop = await validate(
      'over2.yaml',
      DECODER(GPT2, TOKENS, `${base}  a: { over: b, requirements: [x==1] }\n  b: { over: a, requirements: [y==1] }\n`),
    );
    expect(loop.code).toBe(2);
    expect(loop.stderr).toMatch(/over2\.yaml:7:\d+ environments\.a\.over: environment 'a' is layered over itself/);
    const python = await validate(
      'over3.yaml',
      DECODER(GPT2, TOKENS, `${base}  peer: { over: main, python: /usr/bin/python3, requirements: [x==1] }\n`),
    );
    expect(python.code).toBe(2);
    expect(python.stderr).toMatch(
      /over3\.yaml:7:\d+ environments\.peer\.python: environment 'peer' is layered over 'main', so it runs the base's interpreter/,
    );
  });

  it('keeps the `gpt2` builder of the first decoder specs', async () => {
    const text = fs.readFileSync(path.join(ROOT, 'specs/gpt2_tiny_cpu.yaml'), 'utf8');
    expect(text).toMatch(/builder: gpt2\b/);
    const r = await cli(['validate', path.join(ROOT, 'specs/gpt2_tiny_cpu.yaml')]);
    expect(r.code, r.stderr).toBe(0);
  });
});
