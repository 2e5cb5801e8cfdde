// The across-runs rule (issue 13), proven by seeded simulation of whole runs on this machine's noise
// (test/compare/simulate-runs.ts): a shift common to a run, up to sd 3%, must not make A/A pairs look
// changed, and a 10% slowdown of one tool must still be seen, at the seed protocol (3 processes x 20).
import { describe, expect, it } from 'vitest';
import { labelRates, toolRates } from './across-runs.simulation.ts';
import { CAMPAIGN, QUIET } from './simulate-runs.ts';

// 80 A/A and 40 slowed pairs per level keep the test near half a minute on a loaded machine; the
// figures with 500 pairs per row are in docs/compare.md (test/compare/simulation-figures.ts).
describe.each([0, 0.01, 0.02, 0.03])('pairs of runs with a run-level shift of sd %s (interleaved schedule)', (run) => {
  it('labels at most 5% of 80 A/A pairs faster or slower, in either mode', () => {
    const r = labelRates(80, 1, { ...QUIET, run }, 7000 + run * 1000);
    expect(r.ratio.unavailable).toBe(0);
    for (const mode of [r.ratio, r.absolute]) expect(mode.faster + mode.slower).toBeLessThanOrEqual(4);
  }, 120_000);

  it('labels a 10% slowdown of one tool slower in at least 90% of 40 pairs, by its ratio to raw', () => {
    const r = labelRates(40, 1.1, { ...QUIET, run }, 9000 + run * 1000);
    expect(r.ratio.slower).toBeGreaterThanOrEqual(36);
    expect(r.ratio.faster).toBe(0);
  }, 120_000);
});

// The same acceptance on this machine's measured noise (CAMPAIGN, estimated from issue 13's campaign by
// bench/noise-model.ts: 4.3% between processes, 2.6% round drift), where one cell cannot see 10%: the
// tool is judged over its 6 cells (src/compare/tools.ts), in a resnet18_cpu-like matrix of 7 tools with
// two A/A pairs of hooks, so the cells' threshold is the A/A noise a real run would have. 30 A/A and 60
// slowed pairs per level keep it near 40 seconds; docs/compare.md has 500 per level, where the slowed
// tool is labelled in 88-91% of pairs: the bound here (80% of 60) leaves room for 60 pairs' chance.
describe.each([0, 0.01, 0.02, 0.03])("tool verdicts on the campaign's noise, run-level shift of sd %s", (run) => {
  it('labels at most 5% of A/A tools faster or slower, the tool under test and the six others', () => {
    const r = toolRates(30, 1, { ...CAMPAIGN, run }, 11000 + run * 1000);
    expect(r.tool.unavailable + r.others.unavailable).toBe(0);
    expect(r.tool.faster + r.tool.slower).toBeLessThanOrEqual(1);
    expect(r.others.faster + r.others.slower).toBeLessThanOrEqual(9);
  }, 120_000);

  it('labels a tool 10% slower in all 6 contracts slower in at least 80% of 60 pairs, though few of its cells alone', () => {
    const r = toolRates(60, 1.1, { ...CAMPAIGN, run }, 13000 + run * 1000);
    expect(r.tool.slower).toBeGreaterThanOrEqual(48);
    expect(r.tool.faster).toBe(0);
    expect(r.cells.slower).toBeLessThan((r.tool.slower * 6) / 2);
  }, 120_000);
});
