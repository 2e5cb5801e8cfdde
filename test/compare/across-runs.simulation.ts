// Shared by the simulation test and the figures script: how the compare rule labels simulated pairs of
// whole runs, in both modes at once (the absolute verdict does not depend on the mode that decides).
import { compareResults } from '../../src/compare/compute.ts';
import type { CompareMode, SpeedLabel } from '../../src/compare/model.ts';
import { median } from '../../src/stats/summary.ts';
import { variates } from './simulate.ts';
import { simulateRun, type RunModel } from './simulate-runs.ts';

/** Label counts per mode. */
export type Rates = Record<CompareMode, Record<SpeedLabel, number>>;

/** How `pairs` before/after pairs label the tool cell, whose true level changes by `factor` between runs. */
export function labelRates(pairs: number, factor: number, model: RunModel, seed: number): Rates {
  const v = variates(seed);
  const zero = (): Record<SpeedLabel, number> => ({ faster: 0, slower: 0, within_noise: 0, unavailable: 0 });
  const rates: Rates = { ratio: zero(), absolute: zero() };
  for (let i = 0; i < pairs; i++) {
    const before = simulateRun(v, { raw: 10, tool: 12 }, model);
    const after = simulateRun(v, { raw: 10, tool: 12 * factor }, model);
    const speed = compareResults(before, after, { before: 'before', after: 'after' }, { seed: i }).cells.find(
      (x) => x.tool === 'tool',
    )!.speed;
    rates.ratio[speed.label]++;
    rates.absolute[speed.decided_by === 'absolute' ? speed.label : (speed.other?.label ?? 'unavailable')]++;
  }
  return rates;
}

/** The tools of a simulated resnet18_cpu-like matrix (ms): raw, the hooks reference, four others and `tool`. */
const MATRIX = { raw: 10, hooks: 10.1, nnsight: 13, tl_record: 30, tv_fx: 10.5, captum: 11 };

/** Tool verdicts and cell labels of `tool`, measured in `contracts` cells per run. */
export interface ToolRates {
  /** The tool's verdict over its cells, per pair. */
  tool: Record<SpeedLabel, number>;
  /** Its cells' labels, over all pairs. */
  cells: Record<SpeedLabel, number>;
  /** Verdicts of the matrix's other tools (none of which changed), over all pairs. */
  others: Record<SpeedLabel, number>;
}

/**
 * How `pairs` before/after pairs of whole runs judge `tool`, whose true level changes by `factor`: a
 * matrix of 7 tools x `contracts` contracts with the model's A/A pairs, so the noise threshold is the
 * one a real run would have. Judged at the default settings but with `resamples` bootstrap resamples.
 */
export function toolRates(
  pairs: number,
  factor: number,
  model: RunModel,
  seed: number,
  contracts = 6,
  resamples = 400,
): ToolRates {
  const v = variates(seed);
  const zero = (): Record<SpeedLabel, number> => ({ faster: 0, slower: 0, within_noise: 0, unavailable: 0 });
  const rates: ToolRates = { tool: zero(), cells: zero(), others: zero() };
  for (let i = 0; i < pairs; i++) {
    const before = simulateRun(v, { ...MATRIX, tool: 12 }, model, contracts);
    const after = simulateRun(v, { ...MATRIX, tool: 12 * factor }, model, contracts);
    const c = compareResults(before, after, { before: 'before', after: 'after' }, { seed: i, resamples });
    for (const t of c.tools!) (t.tool === 'tool' ? rates.tool : rates.others)[t.label]++;
    for (const x of c.cells.filter((x) => x.tool === 'tool')) rates.cells[x.speed.label]++;
  }
  return rates;
}

/**
 * The median over `pairs` pairs of runs of the median over cells of |after/before - 1| of cell medians:
 * issue 13's run-to-run figure, for a matrix of 7 tools x `contracts` contracts with nothing changed.
 */
export function runToRun(model: RunModel, seed: number, pairs = 300, contracts = 8): number {
  const v = variates(seed);
  const per: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const a = simulateRun(v, { ...MATRIX, tool: 12 }, { ...model, aaPairs: 0 }, contracts);
    const b = simulateRun(v, { ...MATRIX, tool: 12 }, { ...model, aaPairs: 0 }, contracts);
    per.push(median(a.cells.map((c, k) => Math.abs(b.cells[k].median_ms! / c.median_ms! - 1))));
  }
  return median(per);
}

/**
 * How `pairs` before/after pairs of paired runs label the tool cell whose true ratio to raw changes by
 * `factor`, with the A/A pairs of hooks setting the threshold as in a real run (docs/compare.md).
 */
export function pairedLabelRates(
  pairs: number,
  factor: number,
  model: RunModel,
  seed: number,
  resamples = 400,
): Record<SpeedLabel, number> {
  const v = variates(seed);
  const rates: Record<SpeedLabel, number> = { faster: 0, slower: 0, within_noise: 0, unavailable: 0 };
  for (let i = 0; i < pairs; i++) {
    const before = simulateRun(v, { raw: 10, hooks: 10.1, tool: 12 }, model);
    const after = simulateRun(v, { raw: 10, hooks: 10.1, tool: 12 * factor }, model);
    rates[
      compareResults(before, after, { before: 'before', after: 'after' }, { seed: i, resamples }).cells.find(
        (x) => x.tool === 'tool',
      )!.speed.label
    ]++;
  }
  return rates;
}
