// Precision-driven sampling (issue 13): whether a cell needs another process, as a pure function of the
// processes it has run. The per-process stop is in the harness (benchgrid_harness/precision.py).
import jStat from 'jstat';

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
  /** Seconds of timed work (samples and their collections). */
  timed_s: number;
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
 * Relative half-width of the 95% interval of a cell's median from its process medians: Student's t
 * interval on their logarithms (processes are the unit of replication; between-process spread dominates
 * on a shared machine), as exp(t * sd / sqrt(p)) - 1. Infinite below 2 processes.
 */
export function processesHalfWidth(medians: readonly number[]): number {
  const p = medians.length;
  if (p < 2 || medians.some((m) => !(m > 0))) return Infinity;
  const logs = medians.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / p;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (p - 1));
  const t = jStat.studentt.inv(0.975, p - 1);
  return Math.exp((t * sd) / Math.sqrt(p)) - 1;
}

/**
 * After each timing process of a cell: stop once `processes` have run; once the budget is spent (with at
 * least `min_processes`); or, with precision set, once the cell's median is precise enough (with at least
 * `min_processes`). Otherwise run another.
 */
export function nextProcess(done: readonly ProcessSoFar[], s: PrecisionSettings): Decision {
  const half_width = processesHalfWidth(done.map((d) => d.median_ms));
  if (done.length >= s.processes) return { action: 'stop', reason: 'processes', half_width };
  const floor = s.precision === null ? s.processes : Math.min(s.min_processes, s.processes);
  if (done.length < floor) return { action: 'continue', half_width };
  const spent = done.reduce((a, d) => a + d.timed_s, 0);
  if (spent >= s.budget_s) return { action: 'stop', reason: 'budget', half_width };
  if (s.precision !== null && half_width <= s.precision) return { action: 'stop', reason: 'precision', half_width };
  return { action: 'continue', half_width };
}
