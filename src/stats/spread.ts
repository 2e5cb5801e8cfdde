// Spread between processes: the run's pool of process-to-process variance and the moderated t interval
// on log values (limma's moderated t with a fixed prior weight), used by the precision rule, the paired
// figures and compare's tool verdicts. Pure.
import jStat from 'jstat';
import { median } from './summary.ts';

/**
 * The run's spread between processes: how far two processes of one cell typically disagree in this run,
 * as a variance of log process medians. Every cell of a run shares the machine and its drift, so the
 * run knows this far better than a cell's two or three processes do. It is the median over cells (with
 * at least two processes) of their own variances, so that a few erratic cells do not set it for all,
 * divided by the median of chi-square(d)/d at the cells' median degrees of freedom d, which makes it an
 * estimate of the typical cell's variance rather than of its median estimate. Null below MIN_POOL_CELLS
 * such cells: a pool of one or two cells says nothing about the others.
 */
export interface Pool {
  variance: number;
  /** Degrees of freedom behind it: the sum over the pooled cells. */
  df: number;
  cells: number;
}

export const MIN_POOL_CELLS = 5;

export function pooledSpread(cells: Iterable<readonly number[]>): Pool | null {
  const vs: number[] = [];
  const dfs: number[] = [];
  for (const medians of cells) {
    if (medians.length < 2 || medians.some((m) => !(m > 0))) continue;
    const logs = medians.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    vs.push(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
    dfs.push(logs.length - 1);
  }
  if (vs.length < MIN_POOL_CELLS) return null;
  const d = Math.max(1, Math.round(median(dfs)));
  return { variance: median(vs) / (jStat.chisquare.inv(0.5, d) / d), df: dfs.reduce((x, y) => x + y, 0), cells: vs.length };
}

/**
 * How many processes' worth of evidence the run's pool counts for in one cell's interval. The pool mixes
 * quiet and noisy cells, so it informs a cell's spread without replacing it: a cell whose own two
 * processes agree by luck still gets an interval about as wide as the run's typical disagreement.
 */
export const PRIOR_DF = 4;

/**
 * Relative half-width of the 95% interval of a cell's median from its process medians: Student's t
 * interval on their logarithms (processes are the unit of replication; between-process spread dominates
 * on a shared machine), as exp(t * sd / sqrt(p)) - 1. With the run's `pool`, the cell's variance is
 * moderated towards the pool's, as in limma's moderated t (Smyth 2004) with a fixed prior weight:
 * s^2 = (d0 * pool + (p - 1) * own) / (d0 + p - 1) on d0 + p - 1 degrees of freedom, d0 = min(PRIOR_DF,
 * pool df). Without a pool: the cell's own t interval, infinite below 2 processes.
 */
export function processesHalfWidth(medians: readonly number[], pool: Pool | null = null): number {
  const p = medians.length;
  if (p < 2 || medians.some((m) => !(m > 0))) return Infinity;
  const { variance, df } = moderatedLogSpread(medians, pool);
  const t = jStat.studentt.inv(0.975, df);
  return Math.exp((t * Math.sqrt(variance)) / Math.sqrt(p)) - 1;
}

/**
 * The mean of the logarithms of `values` (positive) and their variance moderated towards `pool`:
 * s^2 = (d0 * pool + own sum of squares) / (d0 + n - 1) on d0 + n - 1 degrees of freedom, d0 =
 * min(PRIOR_DF, pool df); the values' own variance without a pool. Shared by the precision rule
 * (processes of a cell) and compare's tool verdicts (cells of a tool).
 */
export function moderatedLogSpread(values: readonly number[], pool: Pool | null): { mean: number; variance: number; df: number; moderated: boolean } {
  const logs = values.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const ownSs = logs.reduce((a, b) => a + (b - mean) ** 2, 0);
  const d0 = pool ? Math.min(PRIOR_DF, pool.df) : 0;
  const df = d0 + logs.length - 1;
  return { mean, variance: (d0 * (pool?.variance ?? 0) + ownSs) / df, df, moderated: d0 > 0 };
}
