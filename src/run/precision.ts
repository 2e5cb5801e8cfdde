// Precision-driven sampling (issue 13): whether a cell needs another process, as a pure function of the
// processes it has run. The per-process stop is in the harness (benchgrid_harness/precision.py).
import jStat from 'jstat';
import { median } from '../results/stats.ts';

/** Why a cell stopped running processes. */
export type CellStop = 'precision' | 'processes' | 'budget';

/** The settings the decision reads (from the protocol). */
export interface PrecisionSettings {
  /** Relative half-width of the 95% interval of the cell's median at which it stops; null: run every process. */
  precision: number | null;
  /** The most processes a cell runs (`protocol.processes`). */
  processes: number;
  /** The fewest processes a cell runs when precision is set (`protocol.min_processes`). */
  min_processes: number;
  /** Timed work per cell (`protocol.budget_s_per_cell`), seconds. */
  budget_s: number;
}

/** What one finished timing process contributes. */
export interface ProcessSoFar {
  median_ms: number;
  /** Seconds of timed work (samples and their collections; a paired process's baseline calls too). */
  timed_s: number;
  /** A paired process's published ratio (src/results/paired.ts): what its cell's interval is of. */
  ratio?: number;
}

/** The value whose precision the rule judges: a paired process's ratio, else its median. */
export function judged(p: ProcessSoFar): number {
  return p.ratio ?? p.median_ms;
}

/** The decision after a process: run another, or stop and why. */
export type Decision =
  | { action: 'continue'; half_width: number }
  | { action: 'stop'; reason: CellStop; half_width: number };

/**
 * Relative half-width of the distribution-free 95% interval of the median of `values`: the order
 * statistics j = floor(n/2 - 0.98 sqrt(n)) and k = ceil(n/2 + 1 + 0.98 sqrt(n)) (1-based); infinite
 * below 6 values, where the interval would be the whole range or wider. The harness's per-process stop
 * uses the same rule.
 */
export function medianHalfWidth(values: readonly number[]): number {
  const n = values.length;
  if (n < 6) return Infinity;
  const s = [...values].sort((a, b) => a - b);
  const spread = 0.98 * Math.sqrt(n);
  const low = Math.max(1, Math.floor(n / 2 - spread));
  const high = Math.min(n, Math.ceil(n / 2 + 1 + spread));
  const mid = Math.floor(n / 2);
  const med = n % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return med > 0 ? (s[high - 1] - s[low - 1]) / 2 / med : Infinity;
}

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

/**
 * After each timing process of a cell: stop once `processes` have run; once the budget is spent (with at
 * least `min_processes`); or, with precision set, once the cell's median (a paired cell: its paired ratio)
 * is precise enough (with at least `min_processes`; `pool` is the run's spread between processes of such
 * cells, see processesHalfWidth). Otherwise run another.
 */
export function nextProcess(done: readonly ProcessSoFar[], s: PrecisionSettings, pool: Pool | null = null): Decision {
  // A cell whose every process paired is judged on its paired ratios (the pool must then be of such cells).
  const values = done.every((d) => d.ratio !== undefined) ? done.map(judged) : done.map((d) => d.median_ms);
  const half_width = processesHalfWidth(values, pool);
  if (done.length >= s.processes) return { action: 'stop', reason: 'processes', half_width };
  const floor = s.precision === null ? s.processes : Math.min(s.min_processes, s.processes);
  if (done.length < floor) return { action: 'continue', half_width };
  const spent = done.reduce((a, d) => a + d.timed_s, 0);
  if (spent >= s.budget_s) return { action: 'stop', reason: 'budget', half_width };
  if (s.precision !== null && half_width <= s.precision) return { action: 'stop', reason: 'precision', half_width };
  return { action: 'continue', half_width };
}
