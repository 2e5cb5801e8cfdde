// The precision target (protocol.precision, --precision): whether a cell needs another process, as a pure
// function of the processes it has run. A paired cell is judged on the interval it will publish (its paired
// ratio's, with the run-to-run component: src/results/published.ts), an unpaired one on its median's over
// processes. The per-process stop is in the harness (benchgrid_harness/precision.py).
import { intervalOf, logEstimate, withComponent } from '../stats/paired.ts';
import { processesHalfWidth, type Pool } from '../stats/spread.ts';
import { componentFor, type BetweenModel } from '../stats/between-run.ts';

/**
 * Why a cell stopped running processes: its interval met the target, it ran `processes` (the most), or the
 * run-to-run component alone is wider than the target, which no number of processes in one run narrows.
 * `budget` is kept for results written before the target was judged on the published interval.
 */
export type CellStop = 'precision' | 'processes' | 'budget' | 'unreachable';

/** The settings the decision reads (from the protocol). */
export interface PrecisionSettings {
  /** Target relative half-width of the cell's published 95% interval; null: run every process. */
  precision: number | null;
  /** The most processes a cell runs (`protocol.processes`). */
  processes: number;
  /** The fewest processes a cell runs when precision is set (`protocol.min_processes`). */
  min_processes: number;
}

/** What one finished timing process contributes. */
export interface ProcessSoFar {
  median_ms: number;
  /** Seconds of timed work (samples and their collections; a paired process's baseline calls too). */
  timed_s: number;
  /** A paired process's paired ratio (src/results/paired.ts): what its cell's interval is of. */
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
 * The relative half-width of the interval a paired cell with these processes' ratios publishes: their
 * geometric mean's (moderated towards the run's `pool`), with the run-to-run component of `between` added
 * (src/results/published.ts does the same with the cell's whole run). Infinite without an interval.
 */
export function publishedHalfWidth(ratios: readonly number[], pool: Pool | null, between: BetweenModel | null): number {
  const own = logEstimate(ratios, pool);
  if (!own) return Infinity;
  const c = between ? componentFor(between, Math.exp(own.mean)) : null;
  const e = c && c.variance > 0 ? withComponent(own, c.variance, c.df) : own;
  const ci = intervalOf(e);
  return Number.isFinite(ci.ci95[1]) ? ci.ci95[1] / ci.ratio - 1 : Infinity;
}

/** The narrowest half-width the run-to-run component leaves a cell of ratio `ratio`, however many processes it runs. */
export function floorHalfWidth(ratio: number, between: BetweenModel | null): number {
  if (!between) return 0;
  const c = componentFor(between, ratio);
  return c.variance > 0 ? intervalOf({ mean: 0, variance: c.variance, df: c.df }).ci95[1] - 1 : 0;
}

/**
 * After each timing process of a cell: stop once `processes` have run; with precision set, once the
 * cell's interval (a paired cell: the one it publishes) is within the target (with at least
 * `min_processes`), or once the run-to-run component alone leaves it wider than the target. Otherwise
 * run another. `pool` is the run's spread between processes of such cells (src/stats/spread.ts).
 */
export function nextProcess(
  done: readonly ProcessSoFar[],
  s: PrecisionSettings,
  pool: Pool | null = null,
  between: BetweenModel | null = null,
): Decision {
  // A cell whose every process paired is judged on its paired ratios (the pool must then be of such cells).
  const paired = done.length > 0 && done.every((d) => d.ratio !== undefined);
  const values = done.map((d) => (paired ? judged(d) : d.median_ms));
  const half_width = paired ? publishedHalfWidth(values, pool, between) : processesHalfWidth(values, pool);
  if (done.length >= s.processes) return { action: 'stop', reason: 'processes', half_width };
  const floor = s.precision === null ? s.processes : Math.min(s.min_processes, s.processes);
  if (done.length < floor) return { action: 'continue', half_width };
  if (s.precision !== null && half_width <= s.precision) return { action: 'stop', reason: 'precision', half_width };
  if (s.precision !== null && paired) {
    const mean = Math.exp(values.reduce((a, v) => a + Math.log(v), 0) / values.length);
    if (floorHalfWidth(mean, between) >= s.precision) return { action: 'stop', reason: 'unreachable', half_width };
  }
  return { action: 'continue', half_width };
}
