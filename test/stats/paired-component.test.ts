// withComponent: the run-to-run component added to an estimate's variance (src/stats/paired.ts).
import { describe, expect, it } from 'vitest';
import { intervalOf, withComponent, type LogEstimate } from '../../src/stats/paired.ts';

const halfWidth = (e: LogEstimate) => Math.log(intervalOf(e).ci95[1] / intervalOf(e).ratio);

describe('withComponent', () => {
  it("never narrows an interval: a component known better than the estimate's processes leaves it at least as wide", () => {
    // 3 processes, no pool (df 2), 0.8% sd; a 0.5% component on 4 df: Satterthwaite alone gives df 3.6
    // and an interval narrower than the processes' own.
    const own = { mean: 0, variance: 0.008 ** 2, df: 2 };
    const e = withComponent(own, 0.005 ** 2, 4);
    expect(e.variance).toBeCloseTo(0.008 ** 2 + 0.005 ** 2, 12);
    expect(halfWidth(e)).toBeGreaterThanOrEqual(halfWidth(own) - 1e-9);
    expect(halfWidth(e)).toBeCloseTo(halfWidth(own), 6);
    expect(e.df).toBeGreaterThan(2);
  });

  it("keeps Satterthwaite's degrees of freedom where the component dominates and the interval widens", () => {
    // A thin wrapper: its processes agree to 0.1%, the run-to-run component is 0.5% on 4 df.
    const own = { mean: Math.log(1.03), variance: 0.001 ** 2, df: 2 };
    const e = withComponent(own, 0.005 ** 2, 4);
    const v = 0.001 ** 2 + 0.005 ** 2;
    expect(e.df).toBeCloseTo(v ** 2 / (0.001 ** 4 / 2 + 0.005 ** 4 / 4), 9);
    expect(halfWidth(e)).toBeGreaterThan(halfWidth(own));
    expect(intervalOf(e).ratio).toBeCloseTo(1.03, 12);
  });
});
