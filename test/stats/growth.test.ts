// The growth exponent: the log-log slope of time against a swept value, its 95% interval, and the verdict.
import { describe, expect, it } from 'vitest';
import { fitGrowth, growthVerdict, type GrowthFit, type GrowthPoint } from '../../src/stats/growth.ts';
import { mulberry32 } from '../../src/util/prng.ts';

const XS = [16, 64, 256, 1024];

/** Points of t = c * x^k, each with `processes` observations scattered by a log-normal-ish factor of `noise`. */
function powerLaw(c: number, k: number, noise = 0, processes = 3, seed = 1): GrowthPoint[] {
  const random = mulberry32(seed);
  return XS.map((x) => ({
    x,
    times: Array.from({ length: processes }, () => c * x ** k * Math.exp(noise * (2 * random() - 1))),
  }));
}

const growthFit = (exponent: number, ci95: [number, number] | null): GrowthFit => ({
  exponent,
  ci95,
  points: 4,
  observations: 12,
  why: ci95 ? null : 'two values',
});

describe('the growth exponent', () => {
  it('is exactly 1 on t = c * x, with an interval of no width where every process agrees', () => {
    const f = fitGrowth(powerLaw(0.01, 1))!;
    expect(f.exponent).toBeCloseTo(1, 12);
    expect(f.ci95![0]).toBeCloseTo(1, 12);
    expect(f.ci95![1]).toBeCloseTo(1, 12);
    expect([f.points, f.observations, f.why]).toEqual([4, 12, null]);
  });

  it('is about 0 for a time that does not change with the value, and its interval holds 0', () => {
    const f = fitGrowth(powerLaw(3, 0, 0.05))!;
    expect(Math.abs(f.exponent)).toBeLessThan(0.05);
    expect(f.ci95![0]).toBeLessThan(0);
    expect(f.ci95![1]).toBeGreaterThan(0);
  });

  it('recovers an exponent of 2 and holds it in its interval', () => {
    const f = fitGrowth(powerLaw(1e-4, 2, 0.1))!;
    expect(f.exponent).toBeCloseTo(2, 1);
    expect(f.ci95![0]).toBeLessThan(2);
    expect(f.ci95![1]).toBeGreaterThan(2);
  });

  it('widens its interval as the processes disagree more', () => {
    const width = (noise: number) => {
      const [low, high] = fitGrowth(powerLaw(0.01, 1, noise, 3, 7))!.ci95!;
      return high - low;
    };
    expect(width(0.01)).toBeLessThan(width(0.05));
    expect(width(0.05)).toBeLessThan(width(0.3));
  });

  it('widens its interval where the points bend away from a power law, even when every process agrees', () => {
    const bent = XS.map((x, i) => ({ x, times: [10 * x * (i % 2 ? 2 : 1)] }));
    const [low, high] = fitGrowth(bent)!.ci95!;
    expect(high - low).toBeGreaterThan(0.5);
  });

  it('gives the slope through two values, but no interval, and says why', () => {
    const f = fitGrowth([
      { x: 16, times: [1, 1.1] },
      { x: 64, times: [4, 4.4] },
    ])!;
    expect(f.exponent).toBeCloseTo(1, 12);
    expect(f.ci95).toBeNull();
    expect(f.why).toMatch(/two swept values/);
  });

  it('fits nothing on fewer than two values with a positive time', () => {
    expect(fitGrowth([{ x: 16, times: [1, 2] }])).toBeNull();
    expect(
      fitGrowth([
        { x: 16, times: [1] },
        { x: 64, times: [0, -1] },
      ]),
    ).toBeNull();
    expect(fitGrowth([])).toBeNull();
  });

  it('fits the median alone where a point has no processes recorded (the seed)', () => {
    const f = fitGrowth(XS.map((x) => ({ x, times: [x / 10] })))!;
    expect(f.exponent).toBeCloseTo(1, 12);
    expect(f.observations).toBe(4);
  });
});

describe('what an overhead exponent says against the forward', () => {
  const forward = growthFit(1, [0.95, 1.05]);

  it('is constant where its interval holds 0 and not the forward', () => {
    expect(growthVerdict(forward, growthFit(0.02, [-0.1, 0.14]))).toBe('constant');
  });

  it('grows like the forward where its interval holds the forward exponent and not 0', () => {
    expect(growthVerdict(forward, growthFit(0.97, [0.9, 1.1]))).toBe('like the forward');
  });

  it('grows faster or slower than the forward where its interval lies above or below it', () => {
    expect(growthVerdict(forward, growthFit(1.9, [1.7, 2.1]))).toBe('faster');
    expect(growthVerdict(forward, growthFit(0.5, [0.4, 0.6]))).toBe('slower');
    expect(growthVerdict(forward, growthFit(-0.5, [-0.6, -0.4]))).toBe('shrinks');
  });

  it('cannot tell where the interval holds both 0 and the forward, or there is no interval', () => {
    expect(growthVerdict(forward, growthFit(0.5, [-0.2, 1.2]))).toBe('cannot tell');
    expect(growthVerdict(forward, growthFit(0.5, null))).toBe('cannot tell');
    expect(growthVerdict(null, growthFit(0.5, [0.4, 0.6]))).toBe('cannot tell');
  });

  it('says none where there is no overhead to fit', () => {
    expect(growthVerdict(forward, null)).toBe('none');
  });
});
