// The across-runs rule (issue 13), proven by seeded simulation of whole runs on this machine's noise
// (test/compare/simulate-runs.ts): a shift common to a run, up to sd 3%, must not make A/A pairs look
// changed, and a 10% slowdown of one tool must still be seen, at the seed protocol (3 processes x 20).
import { describe, expect, it } from 'vitest';
import { labelRates } from './across-runs.simulation.ts';
import { QUIET } from './simulate-runs.ts';

// 80 A/A and 40 slowed pairs per level keep the test near half a minute on a loaded machine; the
// figures with 500 pairs per row are in docs/compare.md (test/compare/simulation-figures.ts).
describe.each([0, 0.01, 0.02, 0.03])('pairs of runs with a run-level shift of sd %s (interleaved schedule)', (run) => {
  it('labels at most 5% of 80 A/A pairs faster or slower, in either mode', () => {
    const r = labelRates(80, 1, { ...QUIET, run }, 7000 + run * 1000);
    expect(r.ratio.unavailable).toBe(0);
    expect(r.ratio.faster + r.ratio.slower).toBeLessThanOrEqual(4);
    expect(r.absolute.faster + r.absolute.slower).toBeLessThanOrEqual(4);
  }, 120_000);

  it('labels a 10% slowdown of one tool slower in at least 90% of 40 pairs, by its ratio to raw', () => {
    const r = labelRates(40, 1.1, { ...QUIET, run }, 9000 + run * 1000);
    expect(r.ratio.slower).toBeGreaterThanOrEqual(36);
    expect(r.ratio.faster).toBe(0);
  }, 120_000);
});
