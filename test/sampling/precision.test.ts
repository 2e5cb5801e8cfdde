// Precision-driven sampling: the pure decision after each process (src/sampling/precision.ts), and the
// harness's per-process rule giving the same half-widths as the TypeScript one.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import {
  floorHalfWidth,
  nextProcess,
  publishedHalfWidth,
  type PrecisionSettings,
} from '../../src/sampling/precision.ts';
import { processesHalfWidth } from '../../src/stats/spread.ts';
import { defaultModel } from '../../src/stats/between-run.ts';
import { ROOT } from '../helpers.ts';

const SETTINGS: PrecisionSettings = { precision: 0.01, processes: 8, min_processes: 3 };
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

  it('judges a paired cell on the interval it publishes: its processes, and what the next run may differ by', () => {
    const ratios = [1.5, 1.502, 1.498].map((ratio) => ({ ...proc(15), ratio }));
    const none = nextProcess(ratios, SETTINGS, null, null);
    const between = { ...defaultModel(), tau0: 0.002, sigma: 0 };
    const withRun = nextProcess(ratios, SETTINGS, null, between);
    expect(withRun.half_width).toBeGreaterThan(none.half_width);
    expect(withRun.half_width).toBeCloseTo(publishedHalfWidth([1.5, 1.502, 1.498], null, between), 12);
  });

  it('stops a paired cell the run-to-run component alone keeps wider than the target: more processes cannot narrow it', () => {
    // A tool whose time is 90% its own (ratio 10): tau^2 = 0.005^2 + (0.02 x 0.9)^2, about 1.9%, so a 95%
    // interval no narrower than about 4%, whatever the processes.
    const model = { ...defaultModel(), tau0: 0.005, sigma: 0.02, df: 4 };
    const torchlensLike = [10, 10.01, 9.99].map((ratio) => ({ ...proc(300), ratio }));
    const d = nextProcess(torchlensLike, { ...SETTINGS, precision: 0.02 }, null, model);
    expect(d).toMatchObject({ action: 'stop', reason: 'unreachable' });
    expect(floorHalfWidth(10, model)).toBeGreaterThan(0.02);
    // A thin wrapper (ratio 1.03) under the same model reaches 2%: t(4) x 0.5% is about 1.4%.
    const thin = [1.03, 1.031, 1.029].map((ratio) => ({ ...proc(30), ratio }));
    expect(nextProcess(thin, { ...SETTINGS, precision: 0.02 }, null, model)).toMatchObject({
      action: 'stop',
      reason: 'precision',
    });
  });
});

describe('the harness rule (benchgrid_harness/precision.py)', () => {
  it('gives the same half-widths as medianHalfWidth', async () => {
    const cases = [
      [1, 2, 3, 4, 5, 6],
      Array.from({ length: 20 }, (_, i) => 10 + ((i * 7) % 11) / 10),
      [5, 5, 5, 5, 5, 5, 5, 9],
      Array.from({ length: 37 }, (_, i) => 1 + i * i),
    ];
    const code =
      'import json, sys; from benchgrid_harness.precision import median_half_width as h; print(json.dumps([h(c) for c in json.load(sys.stdin)]))';
    const r = await execa('python3', ['-c', code], {
      input: JSON.stringify(cases),
      env: { PYTHONPATH: path.join(ROOT, 'runners/harness') },
    });
    const py: number[] = JSON.parse(r.stdout);
    cases.forEach((c, i) => expect(py[i]).toBeCloseTo(medianHalfWidth(c), 12));
  });
});
