// The orchestrator's side of precision-driven sampling: it watches finished timing processes and says,
// before a cell's next timing process starts, whether the cell is already precise (src/sampling/precision.ts).
import type { Protocol } from '../spec/types.ts';
import type { Job } from '../run/jobs.ts';
import type { ProcessRecord } from '../records/journal.ts';
import { judged, nextProcess, type PrecisionSettings, type ProcessSoFar } from './precision.ts';
import { pooledSpread, type Pool } from '../stats/spread.ts';
import { pairedProcess, type PairedRecord } from '../records/record.ts';
import { median } from '../stats/summary.ts';
import type { BetweenModel } from '../stats/between-run.ts';

/** The decision's settings from a protocol. */
export function precisionSettings(p: Protocol): PrecisionSettings {
  return { precision: p.precision, processes: p.processes, min_processes: p.min_processes };
}

const sum = (xs: readonly number[] | undefined) => (xs ?? []).reduce((a, b) => a + b, 0);

/**
 * What a finished timing process contributes to its cell's decision; null when it measured nothing. A
 * paired process contributes its published ratio, and its baseline's calls count as timed work.
 */
export function processSoFar(
  timing: { samples_ms: number[]; gc_ms?: number[] } | null | undefined,
  paired?: PairedRecord | null,
): ProcessSoFar | null {
  if (!timing || timing.samples_ms.length === 0) return null;
  const p = pairedProcess(0, timing.samples_ms, paired);
  const baseline =
    p && paired
      ? sum(paired.baseline_ms) +
        sum(paired.baseline_gc_ms) +
        sum(paired.before?.baseline_ms) +
        sum(paired.before?.baseline_gc_ms)
      : 0;
  const spent = sum(timing.samples_ms) + sum(timing.gc_ms) + baseline;
  return { median_ms: median(timing.samples_ms), timed_s: spent / 1000, ...(p ? { ratio: p.ratio } : {}) };
}

/** The run's pool for a cell: the spread of paired ratios over paired cells, or of medians over the others. */
export function poolFor(cells: readonly (readonly ProcessSoFar[])[], paired: boolean): Pool | null {
  const alike = cells.filter((ps) => ps.length > 0 && ps.every((p) => (p.ratio !== undefined) === paired));
  return pooledSpread(alike.map((ps) => ps.map(judged)));
}

/**
 * A gate for `execute`: `observe` every finished process (and, on --resume, the journal's), `skip` a
 * timing job whose cell needs no more processes. Without `protocol.precision` it never skips, so every
 * planned process runs as before. `between` is the run-to-run component as the run's start knows it
 * (from earlier runs of the spec here, src/stats/between-run.ts): paired cells are judged on the
 * interval they will publish.
 */
export function precisionGate(
  protocol: Protocol,
  between: BetweenModel | null = null,
): { observe: (r: ProcessRecord) => void; skip: (job: Job) => boolean } {
  const settings = precisionSettings(protocol);
  const byCell = new Map<string, ProcessSoFar[]>();
  return {
    observe(r) {
      if (r.kind !== 'time' || r.outcome.kind !== 'result' || r.outcome.result.status !== 'ok') return;
      const p = processSoFar(r.outcome.result.timing, r.outcome.result.paired);
      if (p) byCell.set(r.cell, [...(byCell.get(r.cell) ?? []), p]);
    },
    skip(job) {
      if (settings.precision === null || job.kind !== 'time') return false;
      // The pool is recomputed from every cell's processes so far: in the interleaved schedule a cell's
      // third process comes after every cell's second, so by then the pool holds the whole run.
      const mine = byCell.get(job.cell.id) ?? [];
      const pool = poolFor([...byCell.values()], mine.length > 0 && mine.every((p) => p.ratio !== undefined));
      return nextProcess(mine, settings, pool, between).action === 'stop';
    },
  };
}
