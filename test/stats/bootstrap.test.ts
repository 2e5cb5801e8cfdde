// The bootstrap draws a process's resampled median directly from its order statistics: the same
// distribution as drawing n samples with replacement and taking their median, at a cost that does not
// grow with the number of samples.
import { describe, expect, it } from 'vitest';
import { bootstrapRatio, resampledMedian } from '../../src/stats/bootstrap.ts';
import { mulberry32 } from '../../src/util/prng.ts';

/** The median of n draws with replacement, the slow way. */
function naive(sorted: Float64Array, random: () => number): number {
  const n = sorted.length;
  const draw = Float64Array.from({ length: n }, () => sorted[Math.floor(random() * n)]).sort();
  return n % 2 ? draw[(n - 1) / 2] : (draw[n / 2 - 1] + draw[n / 2]) / 2;
}

/** Largest distance between the empirical distribution functions of two samples. */
function ksDistance(x: number[], y: number[]): number {
  const values = [...new Set([...x, ...y])].sort((a, b) => a - b);
  const cdf = (s: number[]) => {
    const sorted = [...s].sort((a, b) => a - b);
    let i = 0;
    return values.map((v) => {
      while (i < sorted.length && sorted[i] <= v) i++;
      return i / sorted.length;
    });
  };
  const [a, b] = [cdf(x), cdf(y)];
  return Math.max(...a.map((v, i) => Math.abs(v - b[i])));
}

describe('resampledMedian', () => {
  it.each([1, 2, 3, 4, 5, 8, 21])('has the distribution of the median of %i draws with replacement', (n) => {
    const sorted = Float64Array.from({ length: n }, (_, i) => 10 + i * i * 0.1);
    const fast = mulberry32(n);
    const slow = mulberry32(1000 + n);
    const draws = 20_000;
    const a = Array.from({ length: draws }, () => resampledMedian(sorted, fast));
    const b = Array.from({ length: draws }, () => naive(sorted, slow));
    // The two empirical CDFs differ by about 0.005 (sd) at 20,000 draws each: 0.025 is far beyond chance.
    expect(ksDistance(a, b)).toBeLessThan(0.025);
    for (const v of a) expect(sorted.includes(v) || n % 2 === 0).toBe(true);
  });
});

describe('bootstrapRatio on large processes', () => {
  it('3 processes x 100,000 samples a side, 2,000 resamples, finishes (it sorted every resample: minutes)', () => {
    const random = mulberry32(7);
    const side = (level: number) =>
      Array.from({ length: 3 }, (_, p) =>
        Array.from({ length: 100_000 }, () => level * (1 + 0.01 * p + 0.02 * random())),
      );
    const ci = bootstrapRatio(side(10), side(11), { resamples: 2_000, confidence: 0.95, random: mulberry32(1) });
    expect(ci.low).toBeGreaterThan(1.05);
    expect(ci.high).toBeLessThan(1.15);
    expect(ci.low).toBeLessThan(ci.high);
  });
});
