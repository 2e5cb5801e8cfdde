// A cell's speed relative to another cell of the same run (a tool over the raw forward), with its 95%
// interval: the one figure the end of a run answers with. One small function, so that the figure can
// change in one place (a paired measurement of tool and baseline would replace the body).
import { bootstrapRatio } from '../stats/bootstrap.ts';
import { fnv1a, mulberry32 } from '../util/prng.ts';
import type { CellResult } from './model.ts';

/** `cell` over `base`: the ratio of their medians and the 95% interval of that ratio. */
export interface CellRatio {
  ratio: number;
  /** The interval's ends; null when the cells carry no raw samples (a seed-layout file). */
  low: number | null;
  high: number | null;
  /** How the interval was obtained, in words. */
  how: string;
}

const RESAMPLES = 2000;

/**
 * The ratio of two measured cells' medians (median of per-process medians), with the hierarchical
 * bootstrap's 95% percentile interval (processes, then samples, resampled: the between-process
 * spread enters it), seeded by the cell id so one results file always gives the same interval.
 */
export function cellRatio(cell: CellResult, base: CellResult): CellRatio | null {
  if (cell.status !== 'ok' || base.status !== 'ok' || !cell.median_ms || !base.median_ms) return null;
  const ratio = cell.median_ms / base.median_ms;
  const usable = (c: CellResult) => (c.samples_ms ?? []).filter((p) => p.length > 0);
  const a = usable(cell);
  const b = usable(base);
  if (a.length === 0 || b.length === 0)
    return { ratio, low: null, high: null, how: 'ratio of medians; no raw samples for an interval' };
  const ci = bootstrapRatio(b, a, { resamples: RESAMPLES, confidence: 0.95, random: mulberry32(fnv1a(cell.id)) });
  return {
    ratio,
    low: ci.low,
    high: ci.high,
    how: `ratio of medians; 95% interval from ${RESAMPLES} hierarchical bootstrap resamples (processes, then samples)`,
  };
}
