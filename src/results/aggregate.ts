// Pure: the journal's process records of a run -> the results model. The machine's facts come in
// through RunInfo.host (read by the caller, see host.ts).
import type { Plan, Cell } from '../plan/expand.ts';
import type { Protocol, Spec } from '../spec/types.ts';
import type { ProcessRecord } from '../records/journal.ts';
import type { ProcessResult } from '../records/outcome.ts';
import { RESULTS_FORMAT, type CellResult, type ProcessStats, type Results, type SubjectModel, type Verdict } from './model.ts';
import { median, summary } from '../stats/summary.ts';
import { WIRE_VERSION } from '../wire.ts';
import type { HostFacts } from './host.ts';
import { cellNotes, cellWork } from './work.ts';
import { gcMedian, gcSamples } from './gc.ts';
import { cellGrowth } from './memory-growth.ts';
import { runPool, withStop } from './cell-stop.ts';
import { dict } from '../util/dict.ts';
import { baselineDonors } from '../run/jobs.ts';
import { lentRecords, pairedProcessesOf, withPairedFigures } from './aggregate-paired.ts';
import { aaCellOf, aaNoise } from './aa-noise.ts';
import { pairedEstimate, withPublished } from './published.ts';
import { betweenModel, type BetweenModel, type RunCells } from '../stats/between-run.ts';
import type { EarlierCell } from './earlier.ts';
import { controlsOf, taxPool, withControlledTax } from './control.ts';
import { pairedPools } from './paired.ts';
import { cellAgreement, cellEffect, worstVerdict } from './effect.ts';
import { cellPrecisionControl } from './precision-control.ts';

/** A cell's guard and agreement figures, each only where its processes recorded one. */
function exactFigures(results: ProcessResult[]): Pick<CellResult, 'effect' | 'agreement' | 'precision_control'> {
  const effect = cellEffect(results);
  const agreement = cellAgreement(results);
  const control = cellPrecisionControl(results);
  return { ...(effect ? { effect } : {}), ...(agreement ? { agreement } : {}), ...(control ? { precision_control: control } : {}) };
}

/** What aggregation needs besides the records. */
export interface RunInfo {
  spec: Spec;
  plan: Plan;
  selected: Set<string>;
  protocol: Protocol;
  device: 'cpu' | 'cuda';
  partial: boolean;
  run: Record<string, unknown>;
  measuredOn: string;
  /** The machine aggregating (localHost() for a local run). */
  host: HostFacts;
  /**
   * This spec's earlier comparable runs on this machine (src/results/earlier.ts), from which the run-to-run
   * component of every published interval is estimated (src/stats/between-run.ts); absent: the default.
   */
  earlier?: Map<string, EarlierCell>[];
  /** False: publish the in-run intervals alone (no run-to-run component); the comparisons of docs/performance.md use it. */
  betweenRun?: boolean;
}

/** Builds the results model from finished processes; cells without processes yet are left out (partial). */
export function aggregate(info: RunInfo, records: ProcessRecord[]): Results {
  const byCell = new Map<string, ProcessRecord[]>();
  for (const r of records) {
    const list = byCell.get(r.cell) ?? [];
    list.push(r);
    byCell.set(r.cell, list);
  }
  const measured: CellResult[] = [];
  const missing: string[] = [];
  const donors = baselineDonors(info.plan, info.selected);
  const timeOf = new Map<string, ProcessRecord[]>();
  for (const cell of info.plan.cells) {
    if (!info.selected.has(cell.id)) continue;
    if (cell.status === 'unsupported') {
      measured.push(blank(cell, 'unsupported', cell.reason));
      continue;
    }
    // A/A and control processes are figures of the run, not of the cell they run for.
    let mine = (byCell.get(cell.id) ?? []).filter((r) => r.kind !== 'aa' && r.kind !== 'control');
    // An A/A process that failed in a way every process repeats stopped the cell before its own
    // processes ran (src/sampling/repeat-gate.ts): that failure is the cell's.
    if (mine.length === 0) mine = (byCell.get(cell.id) ?? []).filter((r) => r.kind === 'aa' && isFailure(r)).slice(0, 1);
    // A baseline cell timed by its row's paired processes borrows their blocks before the import.
    const lent = donors.has(cell.id) ? lentRecords(cell, donors.get(cell.id)!, byCell) : null;
    const time = lent ?? mine.filter((r) => r.kind === 'time').sort((a, b) => a.index - b.index);
    if (time.length === 0 && !mine.some(isFailure)) { missing.push(cell.id); continue; }
    timeOf.set(cell.id, time);
    const c = cellResult(cell, time, mine.filter((r) => r.kind !== 'time'));
    measured.push(lent ? { ...c, baseline_from: donors.get(cell.id)!.filter((d) => lent.some((r) => r.from === d)) } : c);
  }
  // Each cell's stop is judged as the run judged it, against the run's spread between processes.
  const planned = new Map(info.plan.cells.map((c) => [c.id, c]));
  const paired = new Map([...timeOf].map(([id, time]) => [id, pairedProcessesOf(time)]));
  const figured = withPairedFigures(measured, paired, planned, timeOf);
  const { cells, model } = runFigures(info, records, figured, planned);
  const okResults = records.flatMap((r) => (r.outcome.kind === 'result' && r.outcome.result.status === 'ok' ? [r.outcome.result] : []));
  const mainEnv = info.spec.defaultEnvironment;
  // A control may run in another environment than its baseline cell's (jobs.ts): only a cell's own processes count.
  const mainCell = records.find((r) => r.kind !== 'control' && r.outcome.kind === 'result' && info.plan.cells.find((c) => c.id === r.cell)?.environment === mainEnv);
  const mainExe = mainCell && mainCell.outcome.kind === 'result' ? (mainCell.outcome.result.environment.executable as string) : null;
  const versions = versionsOf(okResults, mainExe);
  const mainResult = okResults.find((r) => r.environment.executable === mainExe) ?? okResults[0];
  const environment = { ...(mainResult?.environment ?? {}), load_average_1m: info.host.loadAverage1m };
  const subjects: Results['subjects'] = dict();
  for (const subject of new Set(cells.map((c) => c.subject))) {
    subjects[subject] = {
      meta: {
        environment,
        versions,
        protocol: { ...info.protocol, fresh_subprocess: true, start: info.run.start ?? 'cold' },
        aa_noise: aaNoise(records, aaCellOf(info.plan, records, subject)),
        model: subjectModel(info.spec.subjects[subject], records, cells.filter((c) => c.subject === subject).map((c) => c.id)),
      },
      not_measured: cells.filter((c) => c.subject === subject && c.status === 'error').map((c) => `${c.id.split('/').slice(0, 3).join('/')}: ${c.reason}`),
    };
  }
  const env = mainResult?.environment as Record<string, unknown> | undefined;
  return {
    format_version: RESULTS_FORMAT,
    origin: 'benchgrid',
    spec: { name: info.spec.name, title: info.spec.title, digest: info.spec.digest, device: info.device },
    partial: info.partial || missing.length > 0,
    measured_on: info.measuredOn,
    host: {
      name: describeHost(env, info),
      cpus: info.host.cpus,
      cpu_model: info.host.cpuModel,
      torch_threads: info.protocol.threads,
      gpu: (env?.gpu_name as string | undefined) ?? null,
      hostname: info.host.hostname,
      platform: env?.platform ?? `${info.host.platform}-${info.host.release}`,
    },
    versions,
    harness: `benchgrid 0.1.0, runner wire version ${WIRE_VERSION}, one fresh Python process per measurement`,
    subjects,
    cells,
    page_rows: null,
    run: { ...info.run, missing, between_run: model },
  };
}

/**
 * The figures a cell gets from the whole run: its import tax judged against its row's control
 * (src/results/control.ts), its published interval with the run-to-run component (src/results/published.ts),
 * and its stop, judged as the run judged it against the run's spread between processes.
 */
function runFigures(info: RunInfo, records: ProcessRecord[], figured: CellResult[], planned: Map<string, Cell>): { cells: CellResult[]; model: BetweenModel | null } {
  // The import tax is judged against the row's control (src/results/control.ts); the headline adds the
  // run-to-run component to its interval (src/results/published.ts).
  const pairedCells = figured.filter((c) => c.paired).map((c) => c.paired!.processes);
  const ratioPool = pairedPools(pairedCells).ratio;
  const controls = controlsOf(info.plan, info.selected, records, { ratio: ratioPool, tax: null });
  const pool = taxPool(pairedCells, controls.values());
  const controlled = controlsOf(info.plan, info.selected, records, { ratio: ratioPool, tax: pool });
  const model = info.betweenRun === false ? null : betweenModel([runCells(figured), ...sameCode(info.earlier ?? [], figured)]);
  const withFigures = withPublished(withControlledTax(figured, controlled, planned, pool), model)
    .map((c) => (controlled.has(c.id) ? { ...c, control: controlled.get(c.id)! } : c));
  const pools = { paired: runPool(withFigures, true), unpaired: runPool(withFigures, false) };
  const cells = withFigures.map((c) => withStop(c, info.protocol, c.paired ? pools.paired : pools.unpaired, model));
  return { cells, model };
}

/** The earlier runs' cells that measured what this run's cell measured: the same tool release on the same torch. */
function sameCode(earlier: readonly Map<string, EarlierCell>[], cells: readonly CellResult[]): RunCells[] {
  const byId = new Map(cells.map((c) => [c.id, c]));
  return earlier.map((run) => new Map([...run].filter(([id, e]) => {
    const c = byId.get(id);
    return c !== undefined && c.tool_version === e.tool_version && (c.runtime?.torch ?? null) === e.torch;
  }).map(([id, e]) => [id, { mean: e.mean, variance: e.variance }]))).filter((run) => run.size > 0);
}

/** A run's paired cells as the between-run estimate reads them: each one's log ratio and its variance. */
export function runCells(cells: readonly CellResult[]): RunCells {
  const out: RunCells = new Map();
  for (const c of cells) {
    const e = c.paired ? pairedEstimate(c.paired) : null;
    if (e) out.set(c.id, { mean: e.mean, variance: e.variance });
  }
  return out;
}

function isFailure(r: ProcessRecord): boolean {
  return r.outcome.kind === 'failed' || r.outcome.result.status !== 'ok';
}

function blank(cell: Cell, status: CellResult['status'], reason: string | null): CellResult {
  return {
    id: cell.id, group: cell.group, contract: cell.contract, tool: cell.tool, subject: cell.subject,
    status, statuses: [status], reason, median_ms: null, min_ms: null, max_ms: null, processes: null,
    samples_per_process: null, exact: cell.reference === null ? null : undefined, max_abs_diff: null,
    samples_ms: null, per_process: null, memory: null, tool_version: null, error: null,
  };
}

/**
 * One cell from its processes. Any failed process makes the cell `error` (the first failure's reason);
 * a run-time `unsupported` (library missing, no CUDA) makes it `unsupported`; otherwise `ok`, with the
 * median of the per-process medians and, as min/max, the smallest and largest per-process median.
 */
function cellResult(cell: Cell, time: ProcessRecord[], memory: ProcessRecord[]): CellResult {
  const c = measure(cell, time, memory);
  const first = [...time, ...memory].flatMap((r) => (r.outcome.kind === 'result' ? [r.outcome.result] : []))[0];
  c.runtime = first ? { environment: cell.environment, python: first.versions.python, torch: first.versions.torch, torchvision: first.versions.torchvision } : null;
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
  if (failure) {
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
  const unsupported = results.find((r) => r.status === 'unsupported');
  if (unsupported) {
    const c = blank(cell, 'unsupported', unsupported.reason);
    c.statuses = statuses;
    c.tool_version = toolVersion;
    return c;
  }
  const timed = time.map((r) => ({ r, res: (r.outcome as { result: ProcessResult }).result }));
  const perProcess: ProcessStats[] = timed.map(({ r, res }) => {
    const s = summary(res.timing!.samples_ms);
    return {
      index: r.index, median_ms: s.median, min_ms: s.min, max_ms: s.max, iqr_ms: s.iqr, n: s.n,
      stopped_by: res.timing!.stopped_by, gc_median_ms: gcMedian(gcSamples([res.timing!])), phases_s: res.phases_s, wall_s: r.wall_s, cpus: r.cpus, start: r.start,
      ...('from' in r && typeof r.from === 'string' ? { from: r.from } : {}),
    };
  });
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
  const mem = memory.flatMap((r) => (r.outcome.kind === 'result' && r.outcome.result.memory ? [r.outcome.result.memory] : []));
  return {
    id: cell.id, group: cell.group, contract: cell.contract, tool: cell.tool, subject: cell.subject,
    status: 'ok', statuses, reason: null,
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
    memory: mem.length ? { peak_rss_bytes: mem.map((m) => m.peak_rss_bytes), cuda_peak_allocated_bytes: mem.map((m) => m.cuda_peak_allocated_bytes) } : null,
    memory_growth: cellGrowth(timed.map(({ res }) => res.timing!)),
    tool_version: toolVersion,
    error: null,
  };
}

/**
 * The model a subject's processes built: the spec's builder and name, and the dtype and weights the first
 * process that built it recorded (every process loads the same files: a digest that changed mid-run would
 * be a different subject, and the journal's spec digest already ties a run to its spec).
 */
function subjectModel(subject: Spec['subjects'][string] | undefined, records: readonly ProcessRecord[], cellIds: string[]): SubjectModel | null {
  if (!subject) return null;
  const mine = new Set(cellIds);
  const built = records.find((r) => mine.has(r.cell) && r.outcome.kind === 'result' && r.outcome.result.subject)?.outcome;
  const record = built?.kind === 'result' ? built.result.subject : null;
  return { builder: subject.model.builder, name: subject.model.name, dtype: record?.dtype ?? subject.model.dtype, weights: record?.weights ?? null, ...(record?.tokens ? { tokens: record.tokens } : {}) };
}

/**
 * python/torch/torchvision/numpy of the default environment, then each tool library's version. A cell
 * run in another environment keeps its own in `runtime`.
 */
function versionsOf(results: ProcessResult[], defaultExecutable: string | null): Record<string, string | null> {
  const v = dict<string | null>();
  const first = (results.find((r) => r.environment.executable === defaultExecutable) ?? results[0])?.versions;
  if (first) Object.assign(v, { python: first.python, torch: first.torch, torchvision: first.torchvision, numpy: first.numpy });
  for (const r of results) if (r.versions.library) v[r.versions.library.name] ??= r.versions.library.version;
  return v;
}

function describeHost(env: Record<string, unknown> | undefined, info: RunInfo): string {
  const cpu = info.host.cpuModel ?? 'unknown CPU';
  const gpu = env?.gpu_name ? ` with an ${env.gpu_name}` : '';
  return `a ${info.host.cpus}-core ${cpu} ${info.host.platform} machine${gpu}, ${info.protocol.threads} torch thread${info.protocol.threads === 1 ? '' : 's'} per process`;
}
