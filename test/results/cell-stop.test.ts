// Each cell's stop reason in the results (src/results/cell-stop.ts), judged by the run's own rule.
import { describe, expect, it } from 'vitest';
import { withStop } from '../../src/results/cell-stop.ts';
import { DEFAULT_PROTOCOL } from '../../src/spec/types.ts';
import { measuredCell } from '../compare/simulate.ts';

const samples = (medians: number[]) => medians.map((m) => [m, m, m]);

describe('withStop', () => {
  it('says processes when precision is off and every process ran', () => {
    const c = withStop(measuredCell('A/c/t/s', samples([10, 11, 12])), DEFAULT_PROTOCOL);
    expect(c.stopped_by).toBe('processes');
    expect(c.precision_half_width!).toBeGreaterThan(0.1);
  });

  it('says precision when the processes it ran agree to the precision', () => {
    const c = withStop(measuredCell('A/c/t/s', samples([10, 10.01, 9.99])), {
      ...DEFAULT_PROTOCOL,
      precision: 0.01,
      processes: 8,
    });
    expect(c.stopped_by).toBe('precision');
  });

  it('says nothing for a cell the rule would have continued (an interrupted run)', () => {
    const c = withStop(measuredCell('A/c/t/s', samples([10, 12, 9])), {
      ...DEFAULT_PROTOCOL,
      precision: 0.01,
      processes: 8,
    });
    expect(c.stopped_by).toBeNull();
  });

  it('leaves a cell that was not measured as it is', () => {
    const c = measuredCell('A/c/t/s', null, { status: 'error' });
    expect(withStop(c, DEFAULT_PROTOCOL)).toBe(c);
  });
});
