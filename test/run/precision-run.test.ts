// Precision-driven sampling in a real run: processes stop sampling once their median is precise, and a
// cell runs more processes only where its process medians disagree (protocol.precision, issue 13).
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Results } from '../../src/results/model.ts';
import { FIXTURES, runSpec } from '../helpers.ts';

let results: Results;
const cell = (tool: string) => results.cells.find((c) => c.id === `P/single_module_output/${tool}/resnet18`)!;

beforeAll(async () => {
  ({ results } = await runSpec(path.join(FIXTURES, 'specs/precision.yaml'), 300_000));
}, 320_000);

describe('a run with protocol.precision 0.2', () => {
  it('stops each process by precision, between min_samples and samples, once its median is precise', () => {
    for (const tool of ['steady', 'erratic']) {
      for (const p of cell(tool).per_process!) {
        expect(p.stopped_by).toBe('precision');
        // A sleep is steady, so most processes stop at min_samples (6); a loaded machine's wake-up jitter can ask for more.
        expect(p.n).toBeGreaterThanOrEqual(6);
        expect(p.n).toBeLessThan(40);
      }
    }
  });

  it('stops a cell whose processes agree at min_processes, by precision', () => {
    expect(cell('steady')).toMatchObject({ status: 'ok', processes: 3, stopped_by: 'precision' });
    expect(cell('steady').precision_half_width!).toBeLessThanOrEqual(0.2);
  });

  it('runs every process of a cell whose processes disagree, and says so', () => {
    expect(cell('erratic')).toMatchObject({ status: 'ok', processes: 6, stopped_by: 'processes' });
    expect(cell('erratic').precision_half_width!).toBeGreaterThan(0.2);
    expect(results.partial).toBe(false);
  });
});
