// Why a cell stopped running processes (precision-driven sampling), recorded in the results.
import type { Protocol } from '../spec/types.ts';
import type { CellResult } from './model.ts';
import { poolFor, precisionSettings, processSoFar } from '../sampling/precision-gate.ts';
import { nextProcess, type CellStop, type ProcessSoFar } from '../sampling/precision.ts';
import type { Pool } from '../stats/spread.ts';
import type { BetweenModel } from '../stats/between-run.ts';

/**
 * The cell's stop reason and the half-width of its median's (paired: its ratio's) interval, judged on the
 * processes it ran by the same rule the run applied between them; null reason when the rule would have
 * run another process (an interrupted run, or a cell whose processes failed).
 */
export function cellStop(
  processes: (ProcessSoFar | null)[],
  protocol: Protocol,
  pool: Pool | null = null,
  between: BetweenModel | null = null,
): { stopped_by: CellStop | null; half_width: number | null } {
  const done = processes.filter((p): p is ProcessSoFar => p !== null);
  const d = nextProcess(done, precisionSettings(protocol), pool, between);
  return {
    stopped_by: d.action === 'stop' ? d.reason : null,
    half_width: Number.isFinite(d.half_width) ? d.half_width : null,
  };
}

/** What each of a measured cell's processes contributed to the rule: its median, or its paired ratio. */
function processesOf(c: CellResult): (ProcessSoFar | null)[] {
  return (c.samples_ms ?? []).map((samples_ms, i) => {
    const p = c.paired?.processes.find((x) => x.index === i);
    const paired = p
      ? {
          baseline: c.paired!.baseline,
          seed: p.seed,
          unpaired: null,
          baseline_ms: p.baseline_ms,
          before: { baseline_ms: p.before_ms, baseline_gc_ms: [], stopped_by: 'samples' },
        }
      : null;
    return processSoFar({ samples_ms, gc_ms: c.gc_ms?.[i] }, paired);
  });
}

/** A measured cell with its stop fields added (cells not measured are returned as they are). */
export function withStop(
  c: CellResult,
  protocol: Protocol,
  pool: Pool | null = null,
  between: BetweenModel | null = null,
): CellResult {
  if (c.status !== 'ok' || !c.samples_ms) return c;
  const { stopped_by, half_width } = cellStop(processesOf(c), protocol, pool, between);
  return { ...c, stopped_by, precision_half_width: half_width };
}

/**
 * The run's spread between processes (src/sampling/precision.ts), from its measured cells: of paired ratios
 * over its paired cells (`paired`), else of process medians over the others. The live gate saw the pool
 * as it grew; judged afterwards, every cell sees the whole run's.
 */
export function runPool(cells: readonly CellResult[], paired = false): Pool | null {
  return poolFor(
    cells
      .filter((c) => c.status === 'ok' && c.samples_ms)
      .map((c) => processesOf(c).filter((p): p is ProcessSoFar => p !== null)),
    paired,
  );
}
