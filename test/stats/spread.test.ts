// The run's pool of spread between processes (src/stats/spread.ts): Smyth's empirical Bayes prior, fitted to
// the cells' sample variances, and the moderated variance every interval of a run is built from.
import { describe, expect, it } from 'vitest';
import {
  fitPrior,
  moderatedLogSpread,
  pooledSpread,
  processesHalfWidth,
  trigammaInverse,
} from '../../src/stats/spread.ts';
import trigamma from '@stdlib/math-base-special-trigamma';
import { mulberry32 } from '../../src/util/prng.ts';

/** A standard normal draw (Box-Muller) from a seeded uniform. */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** `cells` cells of `n` values whose log-variances come from a scaled inverse chi-square prior (d0, s0^2). */
function simulated(cells: number, n: number, d0: number, s0: number, seed: number): number[][] {
  const random = mulberry32(seed);
  return Array.from({ length: cells }, () => {
    // sigma^2 = d0 s0^2 / chi2(d0): the cell's true variance.
    const chi = Array.from({ length: d0 }, () => normal(random) ** 2).reduce((a, b) => a + b, 0);
    const sd = Math.sqrt((d0 * s0 * s0) / chi);
    return Array.from({ length: n }, () => Math.exp(sd * normal(random)));
  });
}

describe('the run pool', () => {
  it("recovers the prior the cells' variances came from: its scale and its degrees of freedom", () => {
    const pool = pooledSpread(simulated(2000, 3, 6, 0.03, 1))!;
    expect(Math.sqrt(pool.variance)).toBeGreaterThan(0.027);
    expect(Math.sqrt(pool.variance)).toBeLessThan(0.033);
    expect(pool.prior_df).toBeGreaterThan(3.5);
    expect(pool.prior_df).toBeLessThan(10);
    expect(pool).toMatchObject({ df: 4000, cells: 2000 });
  });

  it('earns many degrees of freedom when every cell spreads alike, and few when cells differ', () => {
    const alike = pooledSpread(simulated(200, 3, 1000, 0.02, 3))!;
    const mixed = pooledSpread([...simulated(100, 3, 1000, 0.005, 4), ...simulated(100, 3, 1000, 0.08, 5)])!;
    expect(alike.prior_df).toBeGreaterThan(40);
    expect(mixed.prior_df).toBeLessThan(3);
  });

  it('is capped at the degrees of freedom of the cells it came from', () => {
    // Five cells of two identical-spread values: the fit finds no extra scatter, d0 would be infinite.
    const pool = pooledSpread(Array.from({ length: 5 }, () => [1, 1.02]))!;
    expect(pool.prior_df).toBe(5);
  });

  it("says nothing below five cells: one erratic neighbour must not set a cell's width", () => {
    expect(
      pooledSpread([
        [10, 11],
        [20, 40],
        [30, 30],
      ]),
    ).toBeNull();
  });

  it('gives a cell whose own processes agree by luck about the width its run earned, not a near-zero one', () => {
    const noisyRun = pooledSpread(simulated(60, 3, 20, 0.04, 7))!;
    const lucky = processesHalfWidth([30, 30.001, 30.0005], noisyRun);
    expect(lucky).toBeGreaterThan(0.02);
    expect(processesHalfWidth([30, 30.001, 30.0005])).toBeLessThan(0.001);
  });

  it("moderates a cell's variance as limma does: (d0 s0^2 + own sum of squares) / (d0 + n - 1)", () => {
    const pool = { variance: 0.0004, prior_df: 6, df: 100, cells: 50 };
    const values = [1, 1.1, 1.2];
    const logs = values.map(Math.log);
    const mean = logs.reduce((a, b) => a + b) / 3;
    const ss = logs.reduce((a, b) => a + (b - mean) ** 2, 0);
    expect(moderatedLogSpread(values, pool)).toEqual({ mean, variance: (6 * 0.0004 + ss) / 8, df: 8, moderated: true });
    expect(moderatedLogSpread(values, null)).toEqual({ mean, variance: ss / 2, df: 2, moderated: false });
  });
});

describe("Smyth's moment fit", () => {
  it('inverts trigamma', () => {
    for (const x of [0.2, 1, 3, 40]) expect(trigammaInverse(trigamma(x))).toBeCloseTo(x, 6);
  });

  it('raises a variance of exactly zero to a small share of the median, so that its logarithm is finite', () => {
    const fit = fitPrior([0, 0.001, 0.0012, 0.0009, 0.0011], [2, 2, 2, 2, 2])!;
    expect(Number.isFinite(fit.variance)).toBe(true);
    expect(fitPrior([0, 0], [1, 1])).toBeNull();
  });
});
