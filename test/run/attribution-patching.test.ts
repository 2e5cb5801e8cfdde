// attribution_patching through the real CLI, in the decoder specs' environments with their real libraries: on a
// tiny GPT-2 and a tiny Qwen2, every tool that implements it agrees with forward hooks (bit, or close for
// TransformerLens's bridge, which computes attention itself), with two forwards each, and the tools whose gradient
// idiom is a full backward are marked for filling parameter gradients.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/results/model.ts';
import { FIXTURES } from '../helpers.ts';
import { cellOf, runInSpecEnvsBeforeAll } from './cell-fixtures.ts';

const SPEC = path.join(FIXTURES, 'specs/attribution-patching.yaml');
const SUBJECTS = ['gpt2', 'qwen2'];
// The environments are the decoder specs' (cached once built; building them is `benchgrid env build`'s job).
const run = runInSpecEnvsBeforeAll(SPEC, 600_000);
const cell = (tool: string, subject: string): CellResult =>
  cellOf(run.results, `M/attribution_patching/${tool}/${subject}`);

describe('attribution_patching on two architectures', () => {
  it('runs every cell, and every tool agrees with forward hooks', () => {
    for (const subject of SUBJECTS) {
      for (const tool of ['raw', 'hooks', 'transformers', 'nnsight', 'nnterp', 'transformer_lens']) {
        const c = cell(tool, subject);
        expect({ id: c.id, status: c.status, reason: c.reason }).toEqual({ id: c.id, status: 'ok', reason: null });
      }
      for (const tool of ['transformers', 'nnsight', 'nnterp'])
        expect([tool, subject, cell(tool, subject).exact]).toEqual([tool, subject, 'bit']);
      const lens = cell('transformer_lens', subject);
      expect(['bit', 'close']).toContain(lens.exact);
      expect(lens.max_abs_diff ?? 0).toBeLessThan(1e-6);
    }
  });

  it('returns one estimate per block and position, and witnesses two forwards', () => {
    for (const subject of SUBJECTS) {
      const hooks = cell('hooks', subject);
      // 3 blocks x 2 sequences x 8 positions, float32.
      expect(hooks.work?.witnesses[0]).toMatchObject({
        forwards: 2,
        parameter_grads: false,
        result_bytes: 3 * 2 * 8 * 4,
      });
      expect([subject, hooks.work?.differs]).toEqual([subject, []]);
      expect(cell('transformers', subject).work?.differs).toEqual([]);
      // Their documented gradient idioms are `metric.backward()`: the same arithmetic, and parameter .grad filled.
      for (const tool of ['nnsight', 'nnterp', 'transformer_lens']) {
        expect([tool, subject, cell(tool, subject).work?.differs]).toEqual([
          tool,
          subject,
          ['fills parameter gradients'],
        ]);
        expect(cell(tool, subject).work?.witnesses[0].forwards).toBe(2);
      }
    }
  });
});
