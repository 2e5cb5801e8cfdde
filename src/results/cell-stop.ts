// Why a cell stopped running processes (precision-driven sampling, issue 13), recorded in the results.
import type { Protocol } from '../spec/types.ts';
import type { CellResult } from './model.ts';
import { precisionSettings, processSoFar } from '../run/precision-gate.ts';
import { median } from './stats.ts';
import { nextProcess, pooledSpread, type CellStop, type Pool, type ProcessSoFar } from '../run/precision.ts';

/**
 * The cell's stop reason and the half-width of its median's interval, judged on the processes it ran by
 * the same rule the run applied between them; null reason when the rule would have run another process
 * (an interrupted run, or a cell whose processes failed).
 */
export function cellStop(timings: ({ samples_ms: number[]; gc_ms?: number[] } | null)[], protocol: Protocol, pool: Pool | null = null): { stopped_by: CellStop | null; half_width: number | null } {
  const done = timings.map(processSoFar).filter((p): p is ProcessSoFar => p !== null);
  const d = nextProcess(done, precisionSettings(protocol), pool);
  return { stopped_by: d.action === 'stop' ? d.reason : null, half_width: Number.isFinite(d.half_width) ? d.half_width : null };
}

/** A measured cell with its stop fields added (cells not measured are returned as they are). */
export function withStop(c: CellResult, protocol: Protocol, pool: Pool | null = null): CellResult {
  if (c.status !== 'ok' || !c.samples_ms) return c;
  const { stopped_by, half_width } = cellStop(c.samples_ms.map((samples_ms, i) => ({ samples_ms, gc_ms: c.gc_ms?.[i] })), protocol, pool);
  return { ...c, stopped_by, precision_half_width: half_width };
}

/**
 * The run's spread between processes (src/run/precision.ts), from its measured cells' process medians.
 * The live gate saw the pool as it grew; judged afterwards, every cell sees the whole run's.
 */
export function runPool(cells: readonly CellResult[]): Pool | null {
  return pooledSpread(cells.filter((c) => c.status === 'ok' && c.samples_ms).map((c) => c.samples_ms!.filter((s) => s.length > 0).map((s) => median(s))));
}
