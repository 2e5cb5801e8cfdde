// The sweep axis: one declared subject, one subject per value (per combination, for several keys), each
// planned, reasoned and requested exactly as a subject declared by hand with that value.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { requestSubject } from '../../src/run/jobs.ts';
import { namesSubject, pointData, sweepName, sweepPoints } from '../../src/spec/sweep.ts';
import { splitSweep } from '../../src/report/tidy.ts';
import { tmpdir, write } from '../helpers.ts';
import { inBfloat16 } from './subjects-fixtures.ts';
import { sweepSpec } from './sweep-spec.ts';

let dir: string;
beforeAll(() => {
  dir = tmpdir();
});

const errors = (ds: { severity: string }[]) => ds.filter((d) => d.severity === 'error');

/** The sweep spec with `extra` under its subject, written as `name` and loaded, and its cells' subjects in plan order. */
async function load(name: string, extra: string, opts: Parameters<typeof sweepSpec>[1] = {}) {
  const loaded = await loadSpec(write(dir, name, sweepSpec(extra, opts)));
  return { ...loaded, subjects: [...new Set(loaded.plan!.cells.map((c) => c.subject))] };
}

describe('a sweep', () => {
  it('makes one subject per value, named by the short name of its path, and a group naming the subject runs them all', async () => {
    const { plan, spec, diagnostics } = await load('one.yaml', '    sweep: { inputs.shape.1: [16, 64, 256] }');
    expect(errors(diagnostics)).toEqual([]);
    expect(plan!.cells.map((c) => c.id)).toEqual([
      'A/single_module_output/raw/gpt2@seq=16',
      'A/single_module_output/hooks/gpt2@seq=16',
      'A/single_module_output/raw/gpt2@seq=64',
      'A/single_module_output/hooks/gpt2@seq=64',
      'A/single_module_output/raw/gpt2@seq=256',
      'A/single_module_output/hooks/gpt2@seq=256',
    ]);
    expect(spec!.subjects['gpt2@seq=256']).toMatchObject({
      label: 'GPT-2',
      inputs: { shape: [1, 256], stimuli: 1, batch_size: 1 },
      sweep: { of: 'gpt2', values: { seq: 256 } },
      swept: [],
    });
    expect(splitSweep('gpt2@seq=256')).toEqual({ name: 'gpt2', sweep: 'seq=256' });
  });

  it('of several keys makes their cross product in declared order, the first key slowest', async () => {
    const { subjects, spec } = await load(
      'two.yaml',
      '    sweep: { inputs.shape.1: [16, 64], model.config.n_layer: [2, 6] }',
    );
    expect(subjects).toEqual([
      'gpt2@seq=16@n_layer=2',
      'gpt2@seq=16@n_layer=6',
      'gpt2@seq=64@n_layer=2',
      'gpt2@seq=64@n_layer=6',
    ]);
    expect(spec!.subjects['gpt2@seq=64@n_layer=6'].model.config).toMatchObject({ n_layer: 6, n_embd: 32 });
    expect(splitSweep('gpt2@seq=64@n_layer=6')).toEqual({ name: 'gpt2', sweep: 'seq=64;n_layer=6' });
  });

  it('gives the harness each point exactly as the subject declared by hand with that value', async () => {
    const swept = await load('swept.yaml', '    sweep: { inputs.shape.1: [16, 64] }');
    const byHand = await load('hand.yaml', '', { shape: '[1, 64]' });
    const point = swept.spec!.subjects['gpt2@seq=64'];
    expect(requestSubject(point)).toEqual({ ...requestSubject(byHand.spec!.subjects.gpt2), id: 'gpt2@seq=64' });
  });

  it('composes with the dtype axis: each point once per dtype, SUBJECT@seq=N@bf16', async () => {
    const { subjects, spec } = await load(
      'dtypes.yaml',
      '    dtypes: [float32, bfloat16]\n    sweep: { inputs.shape.1: [16, 64] }',
    );
    expect(subjects).toEqual(['gpt2@seq=16@fp32', 'gpt2@seq=16@bf16', 'gpt2@seq=64@fp32', 'gpt2@seq=64@bf16']);
    expect(spec!.subjects['gpt2@seq=64@bf16']).toMatchObject({
      ...inBfloat16('gpt2@seq=64'),
      inputs: { shape: [1, 64] },
      sweep: { of: 'gpt2', values: { seq: 64 } },
    });
  });

  it('is covered by a reason naming its subject, and one point by a reason naming that point', async () => {
    const reason = (subjects: string) =>
      `    unsupported:\n      - tools: [hooks]\n        subjects: [${subjects}]\n        reason: not at this length\n        policy: true\n`;
    const all = await load('reason-all.yaml', '    sweep: { inputs.shape.1: [16, 64] }', { group: reason('gpt2') });
    expect(errors(all.diagnostics)).toEqual([]);
    expect(all.plan!.cells.filter((c) => c.status === 'unsupported').map((c) => c.id)).toEqual([
      'A/single_module_output/hooks/gpt2@seq=16',
      'A/single_module_output/hooks/gpt2@seq=64',
    ]);
    const one = await load(
      'reason-one.yaml',
      '    dtypes: [float32, bfloat16]\n    sweep: { inputs.shape.1: [16, 64] }',
      {
        group: reason('gpt2@seq=64'),
      },
    );
    expect(errors(one.diagnostics)).toEqual([]);
    expect(one.plan!.cells.filter((c) => c.status === 'unsupported').map((c) => c.id)).toEqual([
      'A/single_module_output/hooks/gpt2@seq=64@fp32',
      'A/single_module_output/hooks/gpt2@seq=64@bf16',
    ]);
  });

  it('may be named point by point in a group', async () => {
    const text = sweepSpec('    sweep: { inputs.shape.1: [16, 64] }').replace(
      '    subjects: [gpt2]',
      '    subjects: [gpt2@seq=64]',
    );
    const { plan, diagnostics } = await loadSpec(write(dir, 'by-point.yaml', text));
    expect(errors(diagnostics)).toEqual([]);
    expect(plan!.cells.map((c) => c.id)).toEqual([
      'A/single_module_output/raw/gpt2@seq=64',
      'A/single_module_output/hooks/gpt2@seq=64',
    ]);
  });
});

describe('the pieces of a sweep', () => {
  it('names inputs.shape.0 batch, inputs.shape.1 of tokens seq, model.config.KEY KEY, other entries shape.N, other paths themselves', () => {
    expect(sweepName('inputs.shape.0', 'image')).toBe('batch');
    expect(sweepName('inputs.shape.1', 'tokens')).toBe('seq');
    expect(sweepName('inputs.shape.2', 'image')).toBe('shape.2');
    expect(sweepName('inputs.shape.1', 'image')).toBe('shape.1');
    expect(sweepName('model.config.n_layer', 'tokens')).toBe('n_layer');
    expect(sweepName('inputs.stimuli', 'tokens')).toBe('inputs.stimuli');
  });

  it("writes a point's values into a copy of the subject and leaves the declared one alone", () => {
    const data = {
      label: 'x',
      model: { builder: 'gpt2' as const, seed: 0, config: { n_layer: 2 } },
      inputs: { kind: 'tokens' as const, shape: [1, 16] },
      sites: {},
      sweep: { 'inputs.shape.1': [64], 'model.config.n_layer': [6] },
    };
    const axes = [
      { path: 'inputs.shape.1', name: 'seq', values: [64] },
      { path: 'model.config.n_layer', name: 'n_layer', values: [6] },
    ];
    const [values] = sweepPoints(axes);
    expect(pointData(data, axes, values)).toEqual({
      label: 'x',
      model: { builder: 'gpt2', seed: 0, config: { n_layer: 6 } },
      inputs: { kind: 'tokens', shape: [1, 64] },
      sites: {},
    });
    expect(data.inputs.shape).toEqual([1, 16]);
  });

  it("lets a name cover the ids made from it, and no other subject's", () => {
    expect(namesSubject('gpt2', 'gpt2@seq=16@bf16')).toBe(true);
    expect(namesSubject('gpt2@seq=16', 'gpt2@seq=16@bf16')).toBe(true);
    expect(namesSubject('gpt2@bf16', 'gpt2@seq=16@bf16')).toBe(true);
    expect(namesSubject('gpt2@seq=64', 'gpt2@seq=16@bf16')).toBe(false);
    expect(namesSubject('gpt', 'gpt2@seq=16')).toBe(false);
  });
});
