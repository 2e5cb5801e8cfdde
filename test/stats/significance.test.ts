import { describe, expect, it } from 'vitest';
import { bootstrapRatio } from '../../src/stats/bootstrap.ts';
import { mulberry32 } from '../../src/util/prng.ts';
import { mannWhitney, processTest, studentT, uCounts } from '../../src/stats/significance.ts';

// Expected values computed with scipy 1.17.1 (python3 -c "import scipy.stats as st; ..."):
// st.mannwhitneyu(x, y) with its defaults, st.ttest_ind(y, x) (pooled variance), on the same inputs.
describe('mannWhitney', () => {
  it.each([
    { x: [1, 2, 3, 4], y: [5, 6, 7, 8], u: 0, p: 0.02857142857142857, method: 'exact' },
    { x: [1.1, 2.5, 3, 4, 9], y: [5, 6, 7, 8, 0.5, 10], u: 9, p: 0.32900432900432897, method: 'exact' },
    { x: [3.1], y: [1, 2, 4, 5], u: 2, p: 1, method: 'exact' },
    {
      x: [1, 2, 2, 3, 4, 5, 6, 7, 8, 9],
      y: [2, 3, 3, 5, 8, 10, 11, 12, 13, 14],
      u: 27,
      p: 0.08777177748122647,
      method: 'asymptotic',
    },
    {
      x: [10.1, 10.4, 9.8, 10.0, 10.3, 10.2, 9.9, 10.6, 10.05, 10.15],
      y: [10.5, 10.9, 10.7, 10.2, 11.0, 10.8, 10.65, 10.45, 10.95, 10.75, 10.85],
      u: 5.5,
      p: 0.0005572796051196195,
      method: 'asymptotic',
    },
    { x: [1, 1, 1, 1], y: [1, 1, 1], u: 6, p: 1, method: 'asymptotic' },
  ])('matches scipy for x=$x y=$y', ({ x, y, u, p, method }) => {
    const r = mannWhitney(x, y);
    expect(r.u).toBe(u);
    expect(r.p).toBeCloseTo(p, 6);
    expect(r.method).toBe(method);
  });

  it('is symmetric in its p-value', () => {
    const x = [3, 1, 4, 1.5, 5, 9, 2.6];
    const y = [2.7, 1.8, 2.8, 1.9, 8, 4.5, 9.1, 3.3, 10];
    expect(mannWhitney(x, y).p).toBeCloseTo(mannWhitney(y, x).p, 12);
  });

  it('refuses an empty sample', () => {
    expect(() => mannWhitney([], [1])).toThrow(/at least one value/);
  });
});

describe('uCounts', () => {
  it('counts the orderings of each U for 3 and 4 values (enumerated by brute force in Python)', () => {
    expect(uCounts(3, 4)).toEqual([1, 1, 2, 3, 4, 4, 5, 4, 4, 3, 2, 1, 1]);
  });

  it('sums to C(m+n, m) and is symmetric', () => {
    const c = uCounts(6, 9)!;
    expect(c.reduce((a, b) => a + b, 0)).toBe(5005);
    expect(c).toEqual([...c].reverse());
  });

  it('gives up when the counts would not be exact in doubles', () => {
    expect(uCounts(8, 200_000)).toBeNull();
  });
});

describe('studentT and processTest', () => {
  it('matches scipy ttest_ind on raw values', () => {
    const r = studentT([1, 2, 3], [4, 5, 7])!;
    expect(r.t).toBeCloseTo(3.1622776601683795, 10);
    expect(r.df).toBe(4);
    expect(r.p).toBeCloseTo(0.03410942316740962, 10);
  });

  it.each([
    { before: [10, 10.2, 9.9], after: [11, 11.3, 10.8], t: 6.007305214360925, p: 0.0038652585712814808 },
    { before: [10, 10.5, 11], after: [11.6, 11.7, 30], t: 1.3269119754288519, p: 0.25521592171540114 },
    { before: [2.29, 2.3, 2.34], after: [2.29, 2.3, 2.34], t: 0, p: 1 },
  ])('tests log process medians like scipy ($before vs $after)', ({ before, after, t, p }) => {
    const r = processTest(before, after)!;
    expect(r.t).toBeCloseTo(t, 10);
    expect(r.p).toBeCloseTo(p, 10);
  });

  it('needs two processes per side', () => {
    expect(processTest([1], [2, 3])).toBeNull();
  });

  it('treats zero variance as certain when the means differ', () => {
    expect(studentT([1, 1], [2, 2])!.p).toBe(0);
    expect(studentT([1, 1], [1, 1])!.p).toBe(1);
  });
});

describe('bootstrapRatio', () => {
  const side = (level: number, spread: number[]) =>
    spread.map((s) => Array.from({ length: 20 }, (_, k) => level * (1 + s + 0.01 * Math.sin(k))));

  it('gives the same interval for the same seed', () => {
    const b = side(10, [-0.01, 0, 0.01]);
    const a = side(11, [-0.01, 0, 0.01]);
    const opts = () => ({ resamples: 500, confidence: 0.95, random: mulberry32(99) });
    expect(bootstrapRatio(b, a, opts())).toEqual(bootstrapRatio(b, a, opts()));
  });

  it('covers the true ratio of clearly separated sides and excludes 1', () => {
    const ci = bootstrapRatio(side(10, [-0.01, 0, 0.01]), side(11, [-0.01, 0, 0.01]), {
      resamples: 2000,
      confidence: 0.95,
      random: mulberry32(1),
    });
    expect(ci.low).toBeGreaterThan(1.05);
    expect(ci.low).toBeLessThan(1.1);
    expect(ci.high).toBeGreaterThan(1.1);
    expect(ci.high).toBeLessThan(1.15);
  });

  it('straddles 1 when both sides hold the same data', () => {
    const same = side(10, [-0.02, 0, 0.03]);
    const ci = bootstrapRatio(same, same, { resamples: 2000, confidence: 0.95, random: mulberry32(5) });
    expect(ci.low).toBeLessThan(1);
    expect(ci.high).toBeGreaterThan(1);
  });

  it('is bounded by the process-median range when every process is flat', () => {
    // With constant processes the resampled statistic is one of the process levels, so the interval
    // lies within [min after / max before, max after / min before].
    const flat = (levels: number[]) => levels.map((l) => Array(20).fill(l));
    const ci = bootstrapRatio(flat([10, 10.2, 10.4]), flat([11, 11.1, 11.5]), {
      resamples: 2000,
      confidence: 0.95,
      random: mulberry32(3),
    });
    expect(ci.low).toBeGreaterThanOrEqual(11 / 10.4 - 1e-12);
    expect(ci.high).toBeLessThanOrEqual(11.5 / 10 + 1e-12);
  });

  it('refuses empty processes', () => {
    expect(() => bootstrapRatio([[]], [[1]], { resamples: 10, confidence: 0.95, random: Math.random })).toThrow(
      /non-empty/,
    );
  });
});
