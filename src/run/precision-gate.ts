// The orchestrator's side of precision-driven sampling: it watches finished timing processes and says,
// before a cell's next timing process starts, whether the cell is already precise (src/run/precision.ts).
import type { Protocol } from '../spec/types.ts';
import type { Job } from './jobs.ts';
import type { ProcessRecord } from './journal.ts';
import { nextProcess, pooledSpread, type PrecisionSettings, type ProcessSoFar } from './precision.ts';
import { median } from '../results/stats.ts';

/** The decision's settings from a protocol. */
export function precisionSettings(p: Protocol): PrecisionSettings {
  return { precision: p.precision, processes: p.processes, min_processes: p.min_processes, budget_s: p.budget_s_per_cell };
}

/** What a finished timing process contributes to its cell's decision; null when it measured nothing. */
export function processSoFar(timing: { samples_ms: number[]; gc_ms?: number[] } | null | undefined): ProcessSoFar | null {
  if (!timing || timing.samples_ms.length === 0) return null;
  const spent = timing.samples_ms.reduce((a, b) => a + b, 0) + (timing.gc_ms ?? []).reduce((a, b) => a + b, 0);
  return { median_ms: median(timing.samples_ms), timed_s: spent / 1000 };
}

/**
 * A gate for `execute`: `observe` every finished process (and, on --resume, the journal's), `skip` a
 * timing job whose cell needs no more processes. Without `protocol.precision` it never skips, so every
 * planned process runs as before.
 */
export function precisionGate(protocol: Protocol): { observe: (r: ProcessRecord) => void; skip: (job: Job) => boolean } {
  const settings = precisionSettings(protocol);
  const byCell = new Map<string, ProcessSoFar[]>();
  return {
    observe(r) {
      if (r.kind !== 'time' || r.outcome.kind !== 'result' || r.outcome.result.status !== 'ok') return;
      const p = processSoFar(r.outcome.result.timing);
      if (p) byCell.set(r.cell, [...(byCell.get(r.cell) ?? []), p]);
    },
    skip(job) {
      if (settings.precision === null || job.kind !== 'time') return false;
      // The pool is recomputed from every cell's processes so far: in the interleaved schedule a cell's
      // third process comes after every cell's second, so by then the pool holds the whole run.
      const pool = pooledSpread([...byCell.values()].map((ps) => ps.map((p) => p.median_ms)));
      return nextProcess(byCell.get(job.cell.id) ?? [], settings, pool).action === 'stop';
    },
  };
}
