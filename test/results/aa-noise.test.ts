// A/A noise: processes 2k and 2k+1 form pair k; a failed process drops its own pair, not the others'.
import { describe, expect, it } from 'vitest';
import { aaNoise } from '../../src/results/aa-noise.ts';
import type { ProcessRecord } from '../../src/records/journal.ts';
import { okResult, processRecord, type Started, timed } from './process-records.ts';

const CELL = 'A/single_module_output/hooks/resnet18';

const AT: Started = { started: '2026-01-01T00:00:00Z', wall_s: 1, start: 'cold' };

/** Process `index` of the cell's A/A job: it timed these samples, or (null) it was killed before writing a result. */
function record(cell: string, index: number, samples: number[] | null): ProcessRecord {
  if (samples === null) {
    const reason = 'the process was killed by SIGKILL before writing a result';
    return processRecord(cell, 'aa', index, { kind: 'failed', status: 'error', reason, tail: '' }, AT);
  }
  const result = okResult(cell, index, {
    timing: timed(samples),
    versions: { python: '3.12', torch: '2.4', torchvision: '0.19', numpy: null, library: null },
    environment: {},
    phases_s: {},
  });
  return processRecord(cell, 'aa', index, { kind: 'result', result }, AT);
}

describe('aaNoise', () => {
  it('takes the largest relative difference of the process medians within each pair', () => {
    // medians 10, 11 (10%) and 20, 21 (5%)
    const n = aaNoise(
      [record(CELL, 0, [9, 10, 30]), record(CELL, 1, [11, 11, 11]), record(CELL, 2, [20]), record(CELL, 3, [21, 21])],
      CELL,
    );
    expect(n).toEqual({ pairs: 2, medians_ms: [10, 11, 20, 21], max_rel_diff: 0.1, cell: CELL });
  });

  it('drops the pair of a failed process and keeps the others aligned by index', () => {
    // process 1 failed: pair 0 goes; pair 1 is still (2, 3), not (2 with 0) or (3 with 4)
    const records = [
      record(CELL, 0, [10]),
      record(CELL, 1, null),
      record(CELL, 2, [20]),
      record(CELL, 3, [22]),
      record(CELL, 4, [30]),
      record(CELL, 5, [30.3]),
    ];
    const n = aaNoise(records, CELL)!;
    expect(n.pairs).toBe(2);
    expect(n.medians_ms).toEqual([20, 22, 30, 30.3]);
    expect(n.max_rel_diff).toBeCloseTo(0.1, 12);
  });

  it('counts only the records of its own cell, found by the cell field', () => {
    const other = 'B/raw_forward/reference/resnet18';
    const n = aaNoise(
      [record(other, 0, [1]), record(CELL, 0, [10]), record(other, 1, [5]), record(CELL, 1, [10.5])],
      CELL,
    )!;
    expect(n.medians_ms).toEqual([10, 10.5]);
    expect(n.max_rel_diff).toBeCloseTo(0.05, 12);
    expect(aaNoise([record(other, 0, [1])], CELL)).toBeNull();
  });

  it('has no figure when every pair lost a process', () => {
    expect(aaNoise([record(CELL, 0, [10]), record(CELL, 1, null)], CELL)).toEqual({
      pairs: 0,
      medians_ms: [],
      max_rel_diff: null,
      cell: CELL,
    });
  });
});
