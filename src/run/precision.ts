// Precision-driven sampling: whether a cell needs another process, as a pure function of the
// processes it has run. The per-process stop is in the harness (benchgrid_harness/precision.py).
import { processesHalfWidth, type Pool } from '../stats/spread.ts';

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
