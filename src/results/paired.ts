// Paired figures of a cell (docs/protocol.md, "Pairing"): per process, the tool against its baseline timed
// in alternation after the tool's import (the paired ratio), and the import tax (the baseline after the
// import over the baseline before it); per cell, each over processes with a 95% interval. Pure.
import { intervalOf, logEstimate, logInterval, pairRatios, type RatioCI } from '../stats/paired.ts';
import type { PairedProcess } from '../records/record.ts';

export type { PairedProcess, PairedRecord } from '../records/record.ts';
export { pairedProcess } from '../records/record.ts';
import { pooledSpread, type Pool } from '../stats/spread.ts';

/**
 * The published ratio: the paired ratio, with an interval that also holds the run-to-run component
 * (src/results/published.ts, withPublished).
 */
export interface Published extends RatioCI {
  /** Always null since the import tax became its own figure; results written before then may hold the tax they multiplied in. */
  tax: number | null;
  /** Degrees of freedom of the interval (absent in older results). */
  df?: number;
  /** The run-to-run component it includes, as an sd on the log scale (absent in older results; 0: none). */
  between_run?: number;
}

/**
 * A cell's paired figures (results.json `paired`): the paired ratio (the tool against its baseline timed in
 * alternation in the same processes, after the tool's import) with its 95% interval, and the published
 * ratio every "x raw" shows, which also carries the tool's import tax when the run shows one
 * (docs/protocol.md says why).
 */
export interface PairedFigures extends RatioCI {
  /** Degrees of freedom of the paired ratio's own interval (absent in older results). */
  df?: number;
  /** Pairs timed after the import, over all processes. */
  pairs: number;
  /** The baseline tool (its adapter's function for the same contract, on its own copy of the model). */
  baseline: string;
  published: Published;
  processes: PairedProcess[];
}

/** The run's pools of paired figures: the spread between processes of one cell, typical over the run's cells. */
export interface PairedPools {
  ratio: Pool | null;
  tax: Pool | null;
}

/** The pools from every paired cell's processes (pooledSpread: the prior fitted to their variances). */
export function pairedPools(cells: readonly (readonly PairedProcess[])[]): PairedPools {
  const of = (f: (p: PairedProcess) => number) => pooledSpread(cells.map((ps) => ps.map(f)));
  return { ratio: of((p) => p.ratio), tax: of((p) => p.tax) };
}

/**
 * A cell's paired figures and import tax from its paired processes; null without any. The published
 * ratio starts as the paired ratio; withToolTax (src/results/published.ts) adds the tool's tax.
 */
export function pairedFigures(
  processes: PairedProcess[],
  baseline: string,
  pools: PairedPools,
): { paired: PairedFigures; import_tax: RatioCI } | null {
  const e = logEstimate(
    processes.map((p) => p.ratio),
    pools.ratio,
  );
  const tax = logInterval(
    processes.map((p) => p.tax),
    pools.tax,
  );
  if (!e || !tax) return null;
  const ratio = intervalOf(e);
  const pairs = processes.reduce((a, p) => a + p.pairs, 0);
  return {
    paired: { ...ratio, df: e.df, pairs, baseline, published: { ...ratio, tax: null, df: e.df }, processes },
    import_tax: tax,
  };
}

/**
 * A paired cell's relative samples, what compare and history judge (docs/compare.md): per process, each
 * pair's ratio, tool / baseline after the import, so that a process's median is its paired ratio. Null for
 * a cell without paired processes.
 */
export function pairedSamples(c: { samples_ms: number[][] | null; paired?: PairedFigures | null }): number[][] | null {
  const ps = c.paired?.processes;
  if (!ps || ps.length === 0 || !c.samples_ms) return null;
  const out = ps.flatMap((p) => {
    const tool = c.samples_ms![p.index];
    const ratios = tool ? pairRatios(tool, p.baseline_ms) : [];
    return ratios.length > 0 ? [ratios] : [];
  });
  return out.length > 0 ? out : null;
}
