// The paired side of aggregation (docs/protocol.md, "Pairing"): each tool cell's paired figures and import
// tax, why a cell is unpaired, and the baseline cells timed by their row's paired processes. Pure.
import type { Cell } from '../plan/expand.ts';
import type { ProcessRecord } from '../records/journal.ts';
import type { ProcessResult } from '../records/outcome.ts';
import type { CellResult } from './model.ts';
import { pairedFigures, pairedPools, pairedProcess, type PairedProcess } from './paired.ts';

/** The paired processes among a cell's timing records (ok results whose process paired), in index order. */
export function pairedProcessesOf(time: readonly ProcessRecord[]): PairedProcess[] {
  // `index` is the process's position in the cell's samples_ms, which lists the timing records in this order.
  return time.flatMap((r, position) => {
    if (r.outcome.kind !== 'result' || r.outcome.result.status !== 'ok' || !r.outcome.result.timing) return [];
    const p = pairedProcess(position, r.outcome.result.timing.samples_ms, r.outcome.result.paired);
    return p ? [p] : [];
  });
}

/** Why a tool cell of the plan has no paired figures: the plan's reason, else the one its processes gave. */
export function unpairedReason(cell: Cell, time: readonly ProcessRecord[]): string | null {
  if (cell.pairing === null) return null;
  if (cell.pairing.unpaired !== null) return cell.pairing.unpaired;
  for (const r of time)
    if (r.outcome.kind === 'result' && r.outcome.result.paired?.unpaired) return r.outcome.result.paired.unpaired;
  return 'its processes recorded no paired timing';
}

/**
 * Every measured cell with its paired figures and import tax (ok cells with paired processes), or why it
 * is unpaired. The intervals are moderated towards the run's spread between the paired processes of one
 * cell (src/results/paired.ts), which needs every cell first.
 */
export function withPairedFigures(
  cells: CellResult[],
  processes: Map<string, PairedProcess[]>,
  plan: Map<string, Cell>,
  time: Map<string, ProcessRecord[]>,
): CellResult[] {
  const usable = cells.filter((c) => c.status === 'ok' && (processes.get(c.id)?.length ?? 0) > 0);
  const pools = pairedPools(usable.map((c) => processes.get(c.id)!));
  return cells.map((c) => {
    const cell = plan.get(c.id);
    if (!cell || cell.pairing === null || c.baseline_from) return c;
    const figures = usable.includes(c)
      ? pairedFigures(processes.get(c.id)!, cell.pairing.baseline ?? 'raw', pools)
      : null;
    if (figures) return { ...c, paired: figures.paired, import_tax: figures.import_tax, unpaired: null };
    return {
      ...c,
      paired: null,
      import_tax: null,
      unpaired: c.status === 'ok' ? unpairedReason(cell, time.get(c.id) ?? []) : null,
    };
  });
}

/** How a baseline cell's failure begins when it only repeats its donors' (their own cells carry the cause). */
export const LENT_FAILURE = 'none of the paired processes of its row timed the baseline';

/** A donor's record lent to the baseline cell, with the donor cell it came from. */
export type LentRecord = ProcessRecord & { from?: string };

/**
 * The timing records a baseline cell borrows from its donors (jobs.ts, baselineDonors): for every donor
 * timing process that timed the baseline's block before its tool's import, a record of that block as the
 * baseline's own process (a cell process that ran the baseline's function alone on a freshly built subject
 * before any tool was imported, which is what the block is). Null when no donor process has finished yet;
 * a failed record when they all finished without reaching the block.
 */
export function lentRecords(
  cell: Cell,
  donors: readonly string[],
  byCell: Map<string, ProcessRecord[]>,
): LentRecord[] | null {
  const records = donors.flatMap((d) =>
    (byCell.get(d) ?? []).filter((r) => r.kind === 'time').sort((a, b) => a.index - b.index),
  );
  if (records.length === 0) return null;
  const lent = records.flatMap((r) => {
    const before = r.outcome.kind === 'result' ? r.outcome.result.paired?.before : undefined;
    if (r.outcome.kind !== 'result' || !before || before.baseline_ms.length === 0) return [];
    return [asBaselineRecord(cell, r, r.outcome.result, before)];
  });
  lent.forEach((r, i) => {
    r.index = i;
  });
  if (lent.length > 0) return lent;
  const first = records[0];
  const why =
    first.outcome.kind === 'failed'
      ? first.outcome.reason
      : (first.outcome.result.reason ?? first.outcome.result.error?.message ?? first.outcome.result.status);
  return [
    {
      ...first,
      cell: cell.id,
      index: 0,
      outcome: {
        kind: 'failed',
        status: 'error',
        reason: `${LENT_FAILURE} (${records.length} in its row; first: ${first.cell}: ${why})`,
        tail: '',
      },
    },
  ];
}

function asBaselineRecord(
  cell: Cell,
  r: ProcessRecord,
  res: ProcessResult,
  before: NonNullable<NonNullable<ProcessResult['paired']>['before']>,
): LentRecord {
  const result: ProcessResult = {
    ...res,
    cell_id: cell.id,
    status: 'ok',
    reason: null,
    error: null,
    exact: null,
    memory: null,
    work: before.work ?? null,
    notes: [],
    paired: null,
    timing: {
      timer: res.timing?.timer ?? 'perf_counter_ns',
      sync: res.timing?.sync ?? 'none',
      warmups: res.timing?.warmups ?? 0,
      samples_ms: before.baseline_ms,
      gc: 'collect-between-samples',
      gc_ms: before.baseline_gc_ms,
      stopped_by: before.stopped_by as 'samples' | 'budget' | 'precision',
    },
    phases_s: { before: res.phases_s.before ?? 0 },
  };
  return { ...r, cell: cell.id, outcome: { kind: 'result', result }, from: r.cell };
}
