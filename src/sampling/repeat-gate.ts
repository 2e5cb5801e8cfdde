// Stopping a cell early: a process that failed in a way every further process of the cell would repeat
// (the harness's own error, a site that is not in the model, an import that fails, a tool that declines
// the cell at run time) says all the cell's other processes would say. They are not started: its A/A,
// memory and remaining timing processes, and the run goes on with the other cells.
import type { Job } from '../run/jobs.ts';
import type { ProcessRecord } from '../records/journal.ts';

/**
 * Exception types whose cause lies outside the timed work and does not change from one process to the
 * next: benchgrid_harness.errors.HarnessError (a site missing from the model, a reference adapter that
 * does not import, a request the harness refuses) and its subclass RequestError, and an import that fails.
 * A tool's own exception (ValueError, RuntimeError, ...) may depend on the process, so it is not here.
 */
export const REPEATING_ERRORS: ReadonlySet<string> = new Set([
  'HarnessError',
  'RequestError',
  'ImportError',
  'ModuleNotFoundError',
]);

/** Why a finished process means its cell's other processes would end the same way; null when they might not. */
export function repeats(r: ProcessRecord): string | null {
  if (r.outcome.kind !== 'result') return null;
  const res = r.outcome.result;
  if (res.status === 'unsupported') return 'the tool declined the cell at run time';
  if (res.status === 'error' && res.error && REPEATING_ERRORS.has(res.error.type))
    return `${res.error.type} repeats in every process`;
  return null;
}

/**
 * A gate for `execute`: `observe` every finished process (the journal's too, on --resume), which says
 * whether it stopped its cell just now; `skip` the jobs of stopped cells.
 */
export function repeatGate(): { observe: (r: ProcessRecord) => boolean; skip: (job: Job) => boolean } {
  const stopped = new Set<string>();
  return {
    observe(r) {
      if (repeats(r) === null || stopped.has(r.cell)) return false;
      stopped.add(r.cell);
      return true;
    },
    skip: (job) => stopped.has(job.cell.id),
  };
}

/** A cell the run stopped early: how many of its processes ran, of how many planned, and why. */
export interface StoppedEarly {
  cell: string;
  ran: number;
  planned: number;
  why: string;
}

/** The cells of a run whose processes a repeating failure stopped, from its jobs and journal (pure). */
export function stoppedEarly(jobs: readonly Job[], records: readonly ProcessRecord[]): StoppedEarly[] {
  const planned = new Map<string, number>();
  for (const j of jobs) planned.set(j.cell.id, (planned.get(j.cell.id) ?? 0) + 1);
  const out = new Map<string, StoppedEarly>();
  for (const r of records) {
    const why = repeats(r);
    if (why !== null && !out.has(r.cell))
      out.set(r.cell, { cell: r.cell, ran: 0, planned: planned.get(r.cell) ?? 0, why });
  }
  for (const r of records) {
    const s = out.get(r.cell);
    if (s) s.ran++;
  }
  return [...out.values()].filter((s) => s.ran < s.planned);
}
