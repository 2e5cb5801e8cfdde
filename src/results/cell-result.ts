// Pure: one cell of the results model from its processes' journal records (aggregate.ts, for the
// whole run, adds what a cell gets from the other cells).
import type { Cell } from '../plan/expand.ts';
import type { ProcessRecord } from '../records/journal.ts';
import type { ProcessResult } from '../records/outcome.ts';
import type { CellResult, ProcessStats, Verdict } from './model.ts';
import { median, summary } from '../stats/summary.ts';
import { cellNotes, cellWork } from './work.ts';
import { gcMedian, gcSamples } from './gc.ts';
import { cellGrowth } from './memory-growth.ts';
import { cellAgreement, cellEffect, worstVerdict } from './effect.ts';
import { cellPrecisionControl } from './precision-control.ts';

/** A cell's guard and agreement figures, each only where its processes recorded one. */
function exactFigures(results: ProcessResult[]): Pick<CellResult, 'effect' | 'agreement' | 'precision_control'> {
  const effect = cellEffect(results);
  const agreement = cellAgreement(results);
  const control = cellPrecisionControl(results);
  return {
    ...(effect ? { effect } : {}),
    ...(agreement ? { agreement } : {}),
    ...(control ? { precision_control: control } : {}),
  };
}

/** A process that failed, or ran and did not report ok. */
export function isFailure(r: ProcessRecord): boolean {
  return r.outcome.kind === 'failed' || r.outcome.result.status !== 'ok';
}

/** The fields that name a cell, as its plan names it; every cell of the results model starts with them. */
type CellName = Pick<Cell, 'id' | 'group' | 'contract' | 'tool' | 'subject'>;

/** Only the name: a plan cell has more fields, which a results cell does not carry. */
function nameOf(cell: CellName): CellName {
  return { id: cell.id, group: cell.group, contract: cell.contract, tool: cell.tool, subject: cell.subject };
}

/** A cell with a status and no figures; of its plan cell it needs only the name and the reference. */
export function blank(
  cell: CellName & Pick<Cell, 'reference'>,
  status: CellResult['status'],
  reason: string | null,
): CellResult {
  return {
    ...nameOf(cell),
    status,
    statuses: [status],
    reason,
    median_ms: null,
    min_ms: null,
    max_ms: null,
    processes: null,
    samples_per_process: null,
    exact: cell.reference === null ? null : undefined,
    max_abs_diff: null,
    samples_ms: null,
    per_process: null,
    memory: null,
    tool_version: null,
    error: null,
  };
}

/**
 * One cell from its processes. Any failed process makes the cell `error` (the first failure's reason);
 * a run-time `unsupported` (library missing, no CUDA) makes it `unsupported`; otherwise `ok`, with the
 * median of the per-process medians and, as min/max, the smallest and largest per-process median.
 */
export function cellResult(cell: Cell, time: ProcessRecord[], memory: ProcessRecord[]): CellResult {
  const c = measure(cell, time, memory);
  const first = [...time, ...memory].flatMap((r) => (r.outcome.kind === 'result' ? [r.outcome.result] : []))[0];
  c.runtime = first
    ? {
        environment: cell.environment,
        python: first.versions.python,
        torch: first.versions.torch,
        torchvision: first.versions.torchvision,
      }
    : null;
  if (c.status === 'ok') {
    const timedResults = time.flatMap((r) => (r.outcome.kind === 'result' ? [r.outcome.result] : []));
    c.work = cellWork(timedResults);
    c.notes = cellNotes(timedResults);
  }
  return c;
}

function measure(cell: Cell, time: ProcessRecord[], memory: ProcessRecord[]): CellResult {
  const all = [...time, ...memory];
  const statuses = [...new Set(all.map((r) => (r.outcome.kind === 'failed' ? 'error' : r.outcome.result.status)))];
  const results = all.flatMap((r) => (r.outcome.kind === 'result' ? [r.outcome.result] : []));
  const toolVersion = results.find((r) => r.versions.library)?.versions.library?.version ?? null;
  const failure = all.find((r) => r.outcome.kind === 'failed' || r.outcome.result.status === 'error');
  if (failure) return failedCell(cell, failure, statuses, toolVersion);
  const unsupported = results.find((r) => r.status === 'unsupported');
  if (unsupported) {
    const c = blank(cell, 'unsupported', unsupported.reason);
    c.statuses = statuses;
    c.tool_version = toolVersion;
    return c;
  }
  const timed = time.map((r) => ({ r, res: (r.outcome as { result: ProcessResult }).result }));
  const perProcess: ProcessStats[] = timed.map(({ r, res }) => processStats(r, res));
  const medians = perProcess.map((p) => p.median_ms);
  let exact: Verdict = null;
  let maxAbs: number | null = null;
  if (cell.reference !== null) {
    exact = worstVerdict(timed.map(({ res }) => res.exact?.verdict ?? null));
    for (const { res } of timed) {
      const d = res.exact?.max_abs_diff;
      if (typeof d === 'number') maxAbs = Math.max(maxAbs ?? 0, d);
    }
  }
  const mem = memory.flatMap((r) =>
    r.outcome.kind === 'result' && r.outcome.result.memory ? [r.outcome.result.memory] : [],
  );
  return {
    ...nameOf(cell),
    status: 'ok',
    statuses,
    reason: null,
    median_ms: medians.length ? median(medians) : null,
    min_ms: medians.length ? Math.min(...medians) : null,
    max_ms: medians.length ? Math.max(...medians) : null,
    processes: perProcess.length,
    samples_per_process: perProcess.map((p) => p.n),
    exact,
    max_abs_diff: maxAbs,
    ...exactFigures(cell.reference === null ? [] : timed.map(({ res }) => res)),
    samples_ms: timed.map(({ res }) => res.timing!.samples_ms),
    gc_ms: gcSamples(timed.map(({ res }) => res.timing!)),
    gc_median_ms: gcMedian(gcSamples(timed.map(({ res }) => res.timing!))),
    per_process: perProcess,
    memory: mem.length
      ? {
          peak_rss_bytes: mem.map((m) => m.peak_rss_bytes),
          cuda_peak_allocated_bytes: mem.map((m) => m.cuda_peak_allocated_bytes),
        }
      : null,
    memory_growth: cellGrowth(timed.map(({ res }) => res.timing!)),
    tool_version: toolVersion,
    error: null,
  };
}

/** A cell made `error` by its first failed process: that failure's reason and error. */
function failedCell(
  cell: Cell,
  failure: ProcessRecord,
  statuses: CellResult['statuses'],
  toolVersion: string | null,
): CellResult {
  const c = blank(cell, 'error', null);
  c.statuses = statuses;
  c.tool_version = toolVersion;
  if (failure.outcome.kind === 'failed') {
    c.reason = failure.outcome.reason;
    c.error = { type: null, message: failure.outcome.reason, tail: failure.outcome.tail.slice(-2000) || null };
  } else {
    const e = failure.outcome.result.error!;
    c.reason = `${e.type}: ${e.message}`.split('\n')[0];
    c.error = { type: e.type, message: e.message, tail: e.traceback_tail };
  }
  return c;
}

/** One timed process's figures: its samples' summary, how its sampling stopped, and how it ran. */
function processStats(r: ProcessRecord, res: ProcessResult): ProcessStats {
  const s = summary(res.timing!.samples_ms);
  return {
    index: r.index,
    median_ms: s.median,
    min_ms: s.min,
    max_ms: s.max,
    iqr_ms: s.iqr,
    n: s.n,
    stopped_by: res.timing!.stopped_by,
    gc_median_ms: gcMedian(gcSamples([res.timing!])),
    phases_s: res.phases_s,
    wall_s: r.wall_s,
    cpus: r.cpus,
    start: r.start,
    ...('from' in r && typeof r.from === 'string' ? { from: r.from } : {}),
  };
}
