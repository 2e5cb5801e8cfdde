// The run-to-run component (src/stats/between-run.ts): the default without earlier runs, and the estimate
// from runs whose cells moved by a known amount.
import { describe, expect, it } from 'vitest';
import {
  betweenModel,
  componentFor,
  DEFAULT_SIGMA,
  DEFAULT_TAU0,
  defaultModel,
  otherWork,
  PRIOR_DF,
  type RunCells,
} from '../../src/stats/between-run.ts';
import { mulberry32 } from '../../src/util/prng.ts';

function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** `runs` runs of cells at `ratios`, each run moving cell c by N(0, tau0^2 + (sigma w_c)^2), each cell's own variance `own`. */
function runsOf(runs: number, ratios: number[], tau0: number, sigma: number, own: number, seed: number): RunCells[] {
  const random = mulberry32(seed);
  return Array.from(
    { length: runs },
    () =>
      new Map(
        ratios.map((r, i) => {
          const tau = Math.hypot(tau0, sigma * otherWork(r));
          return [
            `A/c/t${i}/s`,
            { mean: Math.log(r) + tau * normal(random) + Math.sqrt(own) * normal(random), variance: own },
          ];
        }),
      ),
  );
}

describe("the share of a tool's time that is its own work", () => {
  it('is 0 for a tool that does what its baseline does, and nears 1 for one that is mostly its own', () => {
    expect(otherWork(1)).toBe(0);
    expect(otherWork(10)).toBeCloseTo(0.9, 12);
    expect(otherWork(0.5)).toBeCloseTo(0.5, 12);
    expect(otherWork(Number.NaN)).toBe(0);
  });
});

describe('the run-to-run model', () => {
  it('is the default, said to be, when there are no two runs to learn from', () => {
    expect(betweenModel([])).toEqual(defaultModel());
    expect(betweenModel(runsOf(1, [1, 9], 0.01, 0.05, 1e-5, 1))).toMatchObject({
      source: 'default',
      tau0: DEFAULT_TAU0,
      sigma: DEFAULT_SIGMA,
      df: PRIOR_DF,
    });
  });

  it('learns tau0 and sigma from earlier runs whose cells moved that much, beyond their own variance', () => {
    // Half thin wrappers (w 0: they show tau0 alone), half tools whose time is mostly their own.
    const ratios = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 1 : 3 + i / 3));
    const m = betweenModel(runsOf(25, ratios, 0.01, 0.06, 0.0001, 7));
    expect(m).toMatchObject({ source: 'earlier runs', runs: 25, cells: 30 });
    expect(m.df).toBe(PRIOR_DF + 30 * 24);
    expect(m.tau0).toBeGreaterThan(0.005);
    expect(m.tau0).toBeLessThan(0.015);
    expect(m.sigma).toBeGreaterThan(0.05);
    expect(m.sigma).toBeLessThan(0.07);
  });

  it('finds no run-to-run movement where the runs differ only by their own variance', () => {
    const m = betweenModel(
      runsOf(
        10,
        Array.from({ length: 20 }, (_, i) => 1 + i),
        0,
        0,
        0.0004,
        3,
      ),
    );
    // Shrunk towards the default by its PRIOR_DF against 180 degrees of freedom of data near zero.
    expect(m.tau0).toBeLessThan(DEFAULT_TAU0);
    expect(m.sigma).toBeLessThan(DEFAULT_SIGMA);
  });

  it("gives each cell tau0^2 + (sigma w)^2, with the model's degrees of freedom", () => {
    const m = { ...defaultModel(), tau0: 0.01, sigma: 0.04 };
    expect(componentFor(m, 1).variance).toBeCloseTo(0.0001, 14);
    expect(componentFor(m, 5).variance).toBeCloseTo(0.0001 + (0.04 * 0.8) ** 2, 14);
    expect(componentFor(m, 5).df).toBe(m.df);
  });
});
