import { describe, expect, it } from 'vitest';
import { compareSpeed, type SpeedContext } from '../../src/compare/speed.ts';
import { measuredCell, PREDECESSOR_NOISE, simulateSamples, variates } from './simulate.ts';

const CTX: SpeedContext = { threshold: 0.02, resamples: 2000, confidence: 0.95, alpha: 0.05, seed: 1, minProcesses: 3 };
const ID = 'A/single_module_output/hooks/resnet18';

/** A cell as the seed records it: min, median and max of the process medians, no raw samples. */
function predecessorCell(min: number, median: number, max: number, processes = 3) {
  return measuredCell(ID, null, {
    median_ms: median,
    min_ms: min,
    max_ms: max,
    processes,
    samples_per_process: Array(processes).fill(20),
  });
}

describe('the bootstrap rule (raw samples on both sides)', () => {
  const v = variates(5);
  const base = measuredCell(ID, simulateSamples(v, 10, PREDECESSOR_NOISE));
  const slow = measuredCell(ID, simulateSamples(v, 13, PREDECESSOR_NOISE));

  it('labels a clear slowdown slower, with the interval, the t-test and Mann-Whitney', () => {
    const s = compareSpeed(base, slow, CTX);
    expect(s.label).toBe('slower');
    expect(s.basis).toBe('bootstrap');
    expect(s.interval!.kind).toBe('bootstrap95');
    expect(s.interval!.low).toBeGreaterThan(1.02);
    expect(s.ratio).toBeGreaterThan(s.interval!.low);
    expect(s.ratio).toBeLessThan(s.interval!.high);
    expect(s.process_test!.p).toBeLessThan(0.05);
    expect(s.mann_whitney!.p).toBeLessThan(0.001);
    expect(s.mann_whitney!.method).toBe('asymptotic');
    expect(s.why).toMatch(/^95% CI .* lies above 1 \+ 2\.0% and the process-level t-test gives p [=<] /);
  });

  it('gives a cell compared with itself no label and an interval around 1', () => {
    const s = compareSpeed(base, base, CTX);
    expect(s.label).toBe('within_noise');
    expect(s.ratio).toBe(1);
    expect(s.interval!.low).toBeLessThan(1);
    expect(s.interval!.high).toBeGreaterThan(1);
  });

  it('is deterministic: the same cells give the same interval', () => {
    expect(compareSpeed(base, slow, CTX)).toEqual(compareSpeed(base, slow, CTX));
  });

  it('does not label a change smaller than the threshold, however certain', () => {
    const tight = { ...PREDECESSOR_NOISE, between: 0.001, within: 0.001, outlierRate: 0 };
    const a = measuredCell(ID, simulateSamples(v, 10, tight));
    const b = measuredCell(ID, simulateSamples(v, 10.1, tight));
    const s = compareSpeed(a, b, CTX);
    expect(s.interval!.low).toBeGreaterThan(1);
    expect(s.label).toBe('within_noise');
    expect(s.why).toMatch(/reaches into the noise band ±2\.0%/);
  });

  it('gives no label when a side has fewer than three processes', () => {
    const two = measuredCell(ID, simulateSamples(v, 10, { ...PREDECESSOR_NOISE, processes: 2 }));
    const s = compareSpeed(two, slow, CTX);
    expect(s.label).toBe('unavailable');
    expect(s.why).toBe('before has 2 process(es) with timings; 3 are needed to see the between-process noise');
  });
});

describe('the range rule (a side without raw samples, like the seed)', () => {
  it('labels slower when the ranges are apart by more than the threshold and the t-test agrees', () => {
    const s = compareSpeed(predecessorCell(10, 10.1, 10.2), predecessorCell(11, 11.1, 11.2), CTX);
    expect(s.label).toBe('slower');
    expect(s.basis).toBe('range');
    expect(s.interval).toEqual({ low: 11 / 10.2, high: 11.2 / 10, kind: 'range' });
    expect(s.mann_whitney).toBeNull();
    expect(s.why).toMatch(/^range rule \(no raw samples in either file\): range 1\.078-1\.120 lies above 1 \+ 2\.0%/);
  });

  it('labels faster the other way round', () => {
    expect(compareSpeed(predecessorCell(11, 11.1, 11.2), predecessorCell(10, 10.1, 10.2), CTX).label).toBe('faster');
  });

  it('withholds the label when the t-test on the three process medians does not agree', () => {
    // Process medians [10, 10.5, 11] vs [11.6, 11.7, 30]: scipy ttest_ind on the logs gives p = 0.2552.
    const s = compareSpeed(predecessorCell(10, 10.5, 11), predecessorCell(11.6, 11.7, 30), CTX);
    expect(s.interval!.low).toBeGreaterThan(1.02);
    expect(s.process_test!.p).toBeCloseTo(0.25521592171540114, 10);
    expect(s.label).toBe('within_noise');
    expect(s.why).toMatch(/but the process-level t-test gives p = 0\.26 \(not below 0\.05\)/);
  });

  it('says within noise when the ranges overlap', () => {
    const s = compareSpeed(predecessorCell(2.29, 2.3, 2.34), predecessorCell(2.29, 2.3, 2.34), CTX);
    expect(s.label).toBe('within_noise');
    expect(s.ratio).toBe(1);
  });

  it('uses the range alone when the process medians cannot be recovered (more than three processes)', () => {
    const s = compareSpeed(predecessorCell(10, 10.1, 10.2, 5), predecessorCell(11, 11.1, 11.2, 5), CTX);
    expect(s.label).toBe('slower');
    expect(s.process_test).toBeNull();
  });

  it('compares a seed cell with a cell that has raw samples, naming the side without them', () => {
    const v = variates(9);
    const s = compareSpeed(
      predecessorCell(10, 10.1, 10.2),
      measuredCell(ID, simulateSamples(v, 10.1, PREDECESSOR_NOISE)),
      CTX,
    );
    expect(s.basis).toBe('range');
    expect(s.why).toMatch(/^range rule \(no raw samples in before\)/);
    expect(s.process_test).not.toBeNull();
  });

  it('needs three processes', () => {
    const s = compareSpeed(predecessorCell(10, 10.1, 10.2, 2), predecessorCell(11, 11.1, 11.2), CTX);
    expect(s.label).toBe('unavailable');
    expect(s.basis).toBe('none');
    expect(s.ratio).toBeCloseTo(11.1 / 10.1, 12);
  });
});
