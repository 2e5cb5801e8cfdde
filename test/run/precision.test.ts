// Precision-driven sampling: the pure decision after each process (src/run/precision.ts), and the
// harness's per-process rule giving the same half-widths as the TypeScript one.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { medianHalfWidth, nextProcess, processesHalfWidth, type PrecisionSettings } from '../../src/run/precision.ts';
import { ROOT } from '../helpers.ts';

const SETTINGS: PrecisionSettings = { precision: 0.01, processes: 8, min_processes: 3, budget_s: 60 };
const proc = (median_ms: number, timed_s = 1) => ({ median_ms, timed_s });

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
