// Precision-driven sampling: the pure decision after each process (src/run/precision.ts), and the
// harness's per-process rule giving the same half-widths as the TypeScript one.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { nextProcess, type PrecisionSettings } from '../../src/run/precision.ts';
import { pooledSpread, PRIOR_DF, processesHalfWidth } from '../../src/stats/spread.ts';
import { ROOT } from '../helpers.ts';

const SETTINGS: PrecisionSettings = { precision: 0.01, processes: 8, min_processes: 3, budget_s: 60 };
const proc = (median_ms: number, timed_s = 1) => ({ median_ms, timed_s });

/**
 * Relative half-width of the distribution-free 95% interval of the median of `values`: the order
 * statistics j = floor(n/2 - 0.98 sqrt(n)) and k = ceil(n/2 + 1 + 0.98 sqrt(n)) (1-based); infinite
 * below 6 values, where the interval would be the whole range or wider. The harness's per-process stop
 * uses the same rule; benchgrid itself never needs it in TypeScript, so it lives here as the reference
 * the Python rule is checked against.
 */
function medianHalfWidth(values: readonly number[]): number {
  const n = values.length;
  if (n < 6) return Infinity;
  const s = [...values].sort((a, b) => a - b);
  const spread = 0.98 * Math.sqrt(n);
  const low = Math.max(1, Math.floor(n / 2 - spread));
  const high = Math.min(n, Math.ceil(n / 2 + 1 + spread));
  const mid = Math.floor(n / 2);
  const med = n % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return med > 0 ? (s[high - 1] - s[low - 1]) / 2 / med : Infinity;
}

describe('medianHalfWidth', () => {
  it('is infinite below 6 values: the interval would be the whole range', () => {
    expect(medianHalfWidth([1, 2, 3, 4, 5])).toBe(Infinity);
  });

  it('takes the order statistics j = floor(n/2 - 0.98 sqrt n), k = ceil(n/2 + 1 + 0.98 sqrt n)', () => {
    // n = 20: j = floor(10 - 4.38) = 5, k = ceil(11 + 4.38) = 16; values 1..20, median 10.5.
    const values = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(medianHalfWidth(values)).toBeCloseTo((16 - 5) / 2 / 10.5, 12);
  });
});

describe('processesHalfWidth', () => {
  it('is the t interval of the mean log median, as a relative half-width', () => {
    // logs of 10, 11, 12: sd 0.08706, t(0.975, 2) = 4.302653 (scipy.stats.t.ppf)
    const logs = [10, 11, 12].map(Math.log);
    const mean = logs.reduce((a, b) => a + b) / 3;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / 2);
    expect(processesHalfWidth([10, 11, 12])).toBeCloseTo(Math.exp((4.302652729911275 * sd) / Math.sqrt(3)) - 1, 9);
    expect(processesHalfWidth([10])).toBe(Infinity);
  });
});

describe('the run pool (moderated spread between processes)', () => {
  it("is the typical cell's variance of log medians: the median over cells, scaled by the chi-square median", () => {
    const cells = [[10, 11], [20, 22], [30, 30.3], [40, 40], [50, 60], [7]];
    const v = (xs: number[]) => { const l = xs.map(Math.log); const m = l.reduce((a, b) => a + b) / l.length; return l.reduce((a, b) => a + (b - m) ** 2, 0) / (l.length - 1); };
    // five cells with two processes: variances sorted, the middle one is [20, 22]'s (same ratio as [10, 11]);
    // chi-square(1)'s median is 0.454936 (scipy.stats.chi2.ppf(0.5, 1)).
    expect(pooledSpread(cells)).toEqual({ variance: expect.closeTo(v([20, 22]) / 0.454936423119572, 9), df: 5, cells: 5 });
  });

  it("says nothing below five cells: one erratic neighbour must not set a cell's width", () => {
    expect(pooledSpread([[10, 11], [20, 40], [30, 30]])).toBeNull();
  });

  it("gives two processes that agree by luck the run's typical width, not a near-zero one", () => {
    const noisyRun = pooledSpread(Array.from({ length: 40 }, () => [100, 104]))!;
    const lucky = processesHalfWidth([30, 30.001], noisyRun);
    // moderated: s^2 = (4 * pool + own) / 5 on 5 degrees of freedom
    const own = (Math.log(30.001) - Math.log(30)) ** 2 / 2;
    expect(lucky).toBeCloseTo(Math.exp((2.570581835636314 * Math.sqrt((PRIOR_DF * noisyRun.variance + own) / (PRIOR_DF + 1))) / Math.sqrt(2)) - 1, 9);
    expect(lucky).toBeGreaterThan(0.02);
  });

  it("lets a quiet run stop a cell at two processes where the cell's own t interval (1 df) never could", () => {
    const quietRun = pooledSpread(Array.from({ length: 40 }, () => [100, 100.4]))!;
    const two = [proc(30), proc(30.1)];
    const s = { ...SETTINGS, precision: 0.02, min_processes: 2 };
    expect(nextProcess(two, s).action).toBe('continue');
    expect(nextProcess(two, s, quietRun)).toMatchObject({ action: 'stop', reason: 'precision' });
  });

  it("still lets a cell that spreads more than the run ask for more processes", () => {
    const quietRun = pooledSpread(Array.from({ length: 40 }, () => [100, 100.4]))!;
    const s = { ...SETTINGS, precision: 0.02, min_processes: 2 };
    expect(nextProcess([proc(30), proc(33)], s, quietRun).action).toBe('continue');
  });
});

describe('nextProcess', () => {
  it('runs every process when precision is not set, and says so', () => {
    const s = { ...SETTINGS, precision: null, processes: 3 };
    expect(nextProcess([proc(10), proc(10)], s).action).toBe('continue');
    expect(nextProcess([proc(10), proc(10), proc(10)], s)).toMatchObject({ action: 'stop', reason: 'processes' });
  });

  it('never stops by precision below min_processes, however close the medians', () => {
    expect(nextProcess([proc(10), proc(10)], SETTINGS).action).toBe('continue');
  });

  it('stops by precision once the process medians agree to the precision', () => {
    const d = nextProcess([proc(10), proc(10.01), proc(9.99)], SETTINGS);
    expect(d).toMatchObject({ action: 'stop', reason: 'precision' });
    expect(d.half_width).toBeLessThan(0.01);
  });

  it('asks for more processes where the medians spread, up to processes', () => {
    const spread = [proc(10), proc(11), proc(9.5), proc(10.6)];
    expect(nextProcess(spread, SETTINGS).action).toBe('continue');
    const all = [...spread, proc(10.2), proc(9.8), proc(10.9), proc(9.6)];
    expect(nextProcess(all, SETTINGS)).toMatchObject({ action: 'stop', reason: 'processes' });
  });

  it('stops by budget once the cell has spent its timed work (never below min_processes)', () => {
    expect(nextProcess([proc(10, 40), proc(11, 40)], SETTINGS).action).toBe('continue');
    expect(nextProcess([proc(10, 30), proc(11, 20), proc(9, 20)], SETTINGS)).toMatchObject({ action: 'stop', reason: 'budget' });
  });
});

describe('the harness rule (benchgrid_harness/precision.py)', () => {
  it('gives the same half-widths as medianHalfWidth', async () => {
    const cases = [[1, 2, 3, 4, 5, 6], Array.from({ length: 20 }, (_, i) => 10 + ((i * 7) % 11) / 10), [5, 5, 5, 5, 5, 5, 5, 9], Array.from({ length: 37 }, (_, i) => 1 + i * i)];
    const code = 'import json, sys; from benchgrid_harness.precision import median_half_width as h; print(json.dumps([h(c) for c in json.load(sys.stdin)]))';
    const r = await execa('python3', ['-c', code], { input: JSON.stringify(cases), env: { PYTHONPATH: path.join(ROOT, 'runners/harness') } });
    const py: number[] = JSON.parse(r.stdout);
    cases.forEach((c, i) => expect(py[i]).toBeCloseTo(medianHalfWidth(c), 12));
  });
});
