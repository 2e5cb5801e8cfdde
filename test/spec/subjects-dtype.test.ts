// The dtype axis of a subject declared in full: one subject per dtype, each judged at its dtype's
// tolerance, and the dtype, function and weights written into the request a cell process reads.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRequest, tolerance } from '../../src/run/jobs.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { write } from '../helpers.ts';
import { inBfloat16, spec, subjectDir, refusedIn } from './subjects-fixtures.ts';

const dir = subjectDir();

describe('the dtype axis', () => {
  it('makes one subject per dtype, runs them all for a group that names the subject, and a reason naming it covers them all', async () => {
    const extra = '';
    const text = spec('{ builder: torchvision, name: resnet18, seed: 0 }')
      .replace('    sites:', '    dtypes: [float32, bfloat16]\n    sites:')
      .replace(
        '    tools: [raw, hooks]\n',
        `    tools: [raw, hooks]\n    unsupported:\n      - tools: [hooks]\n        subjects: [s]\n        contracts: [single_module_output]\n        reason: not today\n        policy: true\n${extra}`,
      );
    const { plan, spec: s, diagnostics } = await loadSpec(write(dir, 'axis.yaml', text));
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(plan!.cells.map((c) => `${c.id} ${c.status}`)).toEqual([
      'A/single_module_output/raw/s@fp32 planned',
      'A/single_module_output/hooks/s@fp32 unsupported',
      'A/single_module_output/raw/s@bf16 planned',
      'A/single_module_output/hooks/s@bf16 unsupported',
    ]);
    expect(s!.subjects['s@bf16']).toMatchObject({ ...inBfloat16('s'), inputs: { dtype: 'bfloat16' } });
  });

  it("judges a bfloat16 cell at the bfloat16 tolerance, a float32 one at the protocol's, and a contract's own wins over both", async () => {
    const text = spec('{ builder: torchvision, name: resnet18, seed: 0 }', {
      protocol: 'exactness: { rtol: 1.0e-5, atol: 1.0e-6, bfloat16: { atol: 0.02 } }',
    }).replace('    sites:', '    dtypes: [float32, bfloat16]\n    sites:');
    const { spec: s } = await loadSpec(write(dir, 'tol.yaml', text));
    const c = s!.contracts.single_module_output;
    expect(tolerance(c, s!.protocol, 'float32')).toEqual({ rtol: 1e-5, atol: 1e-6 });
    expect(tolerance(c, s!.protocol, 'bfloat16')).toEqual({ rtol: 1.6e-2, atol: 0.02 });
    expect(tolerance(c, s!.protocol, 'float16')).toEqual({ rtol: 1e-3, atol: 1e-5 });
    expect(tolerance({ ...c, exactness: { atol: 0.5 } }, s!.protocol, 'bfloat16')).toEqual({ rtol: 1.6e-2, atol: 0.5 });
  });

  it("refuses dtypes beside a model.dtype, and an inputs.dtype that disagrees with the model's", async () => {
    const both = spec('{ builder: torchvision, name: resnet18, seed: 0, dtype: bfloat16 }').replace(
      '    sites:',
      '    dtypes: [float32, bfloat16]\n    sites:',
    );
    const a = await refusedIn(dir, 'both.yaml', both);
    expect(a).toMatch(/Keep one of model\.dtype and dtypes/);
    const b = await refusedIn(
      dir,
      'disagree.yaml',
      spec('{ builder: torchvision, name: resnet18, seed: 0, dtype: bfloat16 }', {
        inputs: '{ kind: image, shape: [1, 3, 8, 8], seed: 0, dtype: float16 }',
      }),
    );
    expect(b).toMatch(/inputs\.dtype float16 differs from model\.dtype bfloat16/);
  });

  it('writes the dtype, the function and the weights into the request, which is all a cell process needs', async () => {
    const {
      spec: s,
      plan,
      manifests,
    } = await loadSpec(
      write(
        dir,
        'req.yaml',
        spec(
          '{ builder: python, name: "models/net.py:build", seed: 0, dtype: bfloat16, weights: weights/net.safetensors }',
        ),
      ),
    );
    const cell = plan!.cells.find((c) => c.tool === 'hooks')!;
    const x = {
      spec: s!,
      plan: plan!,
      manifests: manifests!,
      device: 'cpu',
      schedule: { seed: 1 },
      protocol: s!.protocol,
    } as unknown as Parameters<typeof buildRequest>[0];
    const request = buildRequest(x, { key: 'k', cell, kind: 'time', index: 0 } as Parameters<typeof buildRequest>[1]);
    expect(request.subject.model).toMatchObject({
      builder: 'python',
      dtype: 'bfloat16',
      source: { file: path.join(dir, 'models/net.py'), function: 'build' },
      weights: { kind: 'state_dict', path: path.join(dir, 'weights/net.safetensors') },
    });
    expect(request.settings).toMatchObject({ rtol: 1.6e-2, atol: 1e-5 });
  });
});
