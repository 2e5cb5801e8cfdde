// Hand-made journal records for the tests of what is computed from a run's processes (aggregate(), the A/A
// noise): the record the executors journal for a process, the result a harness process reports, and the
// timing of its samples.
import type { ProcessLine, ProcessRecord } from '../../src/records/journal.ts';
import type { ProcessResult } from '../../src/records/outcome.ts';
import { WIRE_VERSION } from '../../src/wire.ts';

/** When and how the run started a process, and how long it took. */
export type Started = Pick<ProcessLine, 'started' | 'start' | 'wall_s'>;

/** The journal record of process `index` of `cell` (a `kind` job), classified as `outcome`. */
export function processRecord(
  cell: string,
  kind: ProcessRecord['kind'],
  index: number,
  outcome: ProcessRecord['outcome'],
  at: Started,
): ProcessRecord {
  return { type: 'process', key: `${cell}#${kind}#${index}`, cell, kind, index, cpus: null, ...at, outcome };
}

/** What a time process of `cell` reports when it ran: ok, nothing timed, compared or measured unless `fields` says so. */
export function okResult(
  cell: string,
  index: number,
  fields: Partial<ProcessResult> & Pick<ProcessResult, 'versions' | 'environment' | 'phases_s'>,
): ProcessResult {
  return {
    protocol: WIRE_VERSION,
    cell_id: cell,
    process_index: index,
    mode: 'time',
    status: 'ok',
    reason: null,
    error: null,
    timing: null,
    exact: null,
    memory: null,
    ...fields,
  };
}

/** The timing of a process that took these samples after one warm-up. */
export function timed(samples: number[]): NonNullable<ProcessResult['timing']> {
  return { timer: 'perf_counter_ns', sync: 'none', warmups: 1, samples_ms: samples, stopped_by: 'samples' };
}
