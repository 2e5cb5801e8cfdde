// A cell's precision control comes from its processes' controls (the worst verdict and largest difference at
// float32), loads back from a results file field by field, and its verdict `degraded` ranks between close and vacuous.
import { describe, expect, it } from 'vitest';
import { VERDICT_RANK, worstVerdict } from '../../src/results/effect.ts';
import { cellPrecisionControl, parsePrecisionControl } from '../../src/results/precision-control.ts';
import type { PrecisionControlRecord } from '../../src/records/record.ts';
import type { ProcessResult } from '../../src/records/outcome.ts';

const control = (over: Partial<PrecisionControlRecord>): PrecisionControlRecord => ({
  dtype: 'float32',
  from: 'bfloat16',
  verdict: 'bit',
  max_abs_diff: 0,
  rtol: 1e-5,
  atol: 1e-6,
  bound: 4e-5,
  error: null,
  ...over,
});
const process = (c: PrecisionControlRecord | null) =>
  ({
    exact: {
      verdict: c ? 'degraded' : 'mismatch',
      max_abs_diff: 0.03,
      reference: 'hooks',
      rtol: 1.6e-2,
      atol: 1e-5,
      precision_control: c,
    },
  }) as ProcessResult;
const at = { file: 'results.json', path: 'm.groups.x.precision_control' };

describe('the verdict degraded', () => {
  it('ranks below close and above vacuous and mismatch, so a cell is its processes worst', () => {
    expect(VERDICT_RANK.close).toBeLessThan(VERDICT_RANK.degraded);
    expect(VERDICT_RANK.degraded).toBeLessThan(VERDICT_RANK.vacuous);
    expect(worstVerdict(['bit', 'degraded', 'close'])).toBe('degraded');
    expect(worstVerdict(['degraded', 'mismatch'])).toBe('mismatch');
  });
});

describe("a cell's precision control", () => {
  it('takes the worst verdict and the largest difference any process saw at float32', () => {
    const cell = cellPrecisionControl([
      process(control({ verdict: 'close', max_abs_diff: 2e-6 })),
      process(control({})),
    ]);
    expect(cell).toEqual({ from: 'bfloat16', verdict: 'close', max_abs_diff: 2e-6, rtol: 1e-5, atol: 1e-6 });
  });

  it('is null where no process ran one, and says why where every one failed', () => {
    expect(cellPrecisionControl([process(null)])).toBeNull();
    const failed = cellPrecisionControl([
      process(control({ verdict: null, max_abs_diff: null, error: 'RuntimeError: out of memory' })),
    ]);
    expect(failed).toMatchObject({ verdict: null, error: 'RuntimeError: out of memory' });
  });

  it('loads from a results file, and a malformed one is refused with its field named', () => {
    expect(parsePrecisionControl(undefined, at)).toBeNull();
    expect(
      parsePrecisionControl({ from: 'float16', verdict: 'mismatch', max_abs_diff: 0.01, rtol: 1e-5, atol: 1e-6 }, at),
    ).toEqual({ from: 'float16', verdict: 'mismatch', max_abs_diff: 0.01, rtol: 1e-5, atol: 1e-6 });
    expect(() =>
      parsePrecisionControl({ from: 'float32', verdict: 'bit', max_abs_diff: 0, rtol: 0, atol: 0 }, at),
    ).toThrow(/precision_control\.from/);
    expect(() =>
      parsePrecisionControl({ from: 'bfloat16', verdict: null, max_abs_diff: null, rtol: 0, atol: 0 }, at),
    ).toThrow(/precision_control\.error/);
  });
});
