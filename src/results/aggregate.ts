// Pure: the journal's process records of a run -> the results model. The machine's facts come in
// through RunInfo.host (read by the caller, see host.ts).
import type { Plan, Cell } from '../plan/expand.ts';
import type { Protocol, Spec } from '../spec/types.ts';
import type { ProcessRecord } from '../records/journal.ts';
import type { ProcessResult } from '../records/outcome.ts';
import { RESULTS_FORMAT, type CellResult, type Results, type SubjectModel } from './model.ts';
import { WIRE_VERSION } from '../wire.ts';
import type { HostFacts } from './host.ts';
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
import { blank, cellResult, isFailure } from './cell-result.ts';

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
  const { measured, missing, timeOf } = measuredCells(info, byCellOf(records));
  // Each cell's stop is judged as the run judged it, against the run's spread between processes.
  const planned = new Map(info.plan.cells.map((c) => [c.id, c]));
  const paired = new Map([...timeOf].map(([id, time]) => [id, pairedProcessesOf(time)]));
  const figured = withPairedFigures(measured, paired, planned, timeOf);
  const { cells, model } = runFigures(info, records, figured, planned);
  const okResults = records.flatMap((r) =>
    r.outcome.kind === 'result' && r.outcome.result.status === 'ok' ? [r.outcome.result] : [],
  );
  const mainEnv = info.spec.defaultEnvironment;
  // A control may run in another environment than its baseline cell's (jobs.ts): only a cell's own processes count.
  const mainCell = records.find(
    (r) =>
      r.kind !== 'control' &&
      r.outcome.kind === 'result' &&
      info.plan.cells.find((c) => c.id === r.cell)?.environment === mainEnv,
  );
  const mainExe =
    mainCell && mainCell.outcome.kind === 'result' ? (mainCell.outcome.result.environment.executable as string) : null;
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
        model: subjectModel(
          info.spec.subjects[subject],
          records,
          cells.filter((c) => c.subject === subject).map((c) => c.id),
        ),
      },
      not_measured: cells
        .filter((c) => c.subject === subject && c.status === 'error')
        .map((c) => `${c.id.split('/').slice(0, 3).join('/')}: ${c.reason}`),
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

/** The records of each cell, in journal order. */
function byCellOf(records: readonly ProcessRecord[]): Map<string, ProcessRecord[]> {
  const byCell = new Map<string, ProcessRecord[]>();
  for (const r of records) {
    const list = byCell.get(r.cell) ?? [];
    list.push(r);
    byCell.set(r.cell, list);
  }
  return byCell;
}

/**
 * Every selected cell's result from its own processes (a baseline's lent ones), the cells with none yet
 * (missing), and the time records each measured cell was figured from.
 */
function measuredCells(
  info: RunInfo,
  byCell: Map<string, ProcessRecord[]>,
): { measured: CellResult[]; missing: string[]; timeOf: Map<string, ProcessRecord[]> } {
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
    if (mine.length === 0)
      mine = (byCell.get(cell.id) ?? []).filter((r) => r.kind === 'aa' && isFailure(r)).slice(0, 1);
    // A baseline cell timed by its row's paired processes borrows their blocks before the import.
    const lent = donors.has(cell.id) ? lentRecords(cell, donors.get(cell.id)!, byCell) : null;
    const time = lent ?? mine.filter((r) => r.kind === 'time').sort((a, b) => a.index - b.index);
    if (time.length === 0 && !mine.some(isFailure)) {
      missing.push(cell.id);
      continue;
    }
    timeOf.set(cell.id, time);
    const c = cellResult(
      cell,
      time,
      mine.filter((r) => r.kind !== 'time'),
    );
    measured.push(
      lent ? { ...c, baseline_from: donors.get(cell.id)!.filter((d) => lent.some((r) => r.from === d)) } : c,
    );
  }
  return { measured, missing, timeOf };
}

/**
 * The figures a cell gets from the whole run: its import tax judged against its row's control
 * (src/results/control.ts), its published interval with the run-to-run component (src/results/published.ts),
 * and its stop, judged as the run judged it against the run's spread between processes.
 */
function runFigures(
  info: RunInfo,
  records: ProcessRecord[],
  figured: CellResult[],
  planned: Map<string, Cell>,
): { cells: CellResult[]; model: BetweenModel | null } {
  // The import tax is judged against the row's control (src/results/control.ts); the headline adds the
  // run-to-run component to its interval (src/results/published.ts).
  const pairedCells = figured.filter((c) => c.paired).map((c) => c.paired!.processes);
  const ratioPool = pairedPools(pairedCells).ratio;
  const controls = controlsOf(info.plan, info.selected, records, { ratio: ratioPool, tax: null });
  const pool = taxPool(pairedCells, controls.values());
  const controlled = controlsOf(info.plan, info.selected, records, { ratio: ratioPool, tax: pool });
  const model =
    info.betweenRun === false ? null : betweenModel([runCells(figured), ...sameCode(info.earlier ?? [], figured)]);
  const withFigures = withPublished(withControlledTax(figured, controlled, planned, pool), model).map((c) =>
    controlled.has(c.id) ? { ...c, control: controlled.get(c.id)! } : c,
  );
  const pools = { paired: runPool(withFigures, true), unpaired: runPool(withFigures, false) };
  const cells = withFigures.map((c) => withStop(c, info.protocol, c.paired ? pools.paired : pools.unpaired, model));
  return { cells, model };
}

/** The earlier runs' cells that measured what this run's cell measured: the same tool release on the same torch. */
function sameCode(earlier: readonly Map<string, EarlierCell>[], cells: readonly CellResult[]): RunCells[] {
  const byId = new Map(cells.map((c) => [c.id, c]));
  return earlier
    .map(
      (run) =>
        new Map(
          [...run]
            .filter(([id, e]) => {
              const c = byId.get(id);
              return c !== undefined && c.tool_version === e.tool_version && (c.runtime?.torch ?? null) === e.torch;
            })
            .map(([id, e]) => [id, { mean: e.mean, variance: e.variance }]),
        ),
    )
    .filter((run) => run.size > 0);
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

/**
 * The model a subject's processes built: the spec's builder and name, and the dtype and weights the first
 * process that built it recorded (every process loads the same files: a digest that changed mid-run would
 * be a different subject, and the journal's spec digest already ties a run to its spec).
 */
function subjectModel(
  subject: Spec['subjects'][string] | undefined,
  records: readonly ProcessRecord[],
  cellIds: string[],
): SubjectModel | null {
  if (!subject) return null;
  const mine = new Set(cellIds);
  const built = records.find(
    (r) => mine.has(r.cell) && r.outcome.kind === 'result' && r.outcome.result.subject,
  )?.outcome;
  const record = built?.kind === 'result' ? built.result.subject : null;
  return {
    builder: subject.model.builder,
    name: subject.model.name,
    dtype: record?.dtype ?? subject.model.dtype,
    weights: record?.weights ?? null,
    ...(record?.tokens ? { tokens: record.tokens } : {}),
  };
}

/**
 * python/torch/torchvision/numpy of the default environment, then each tool library's version. A cell
 * run in another environment keeps its own in `runtime`.
 */
function versionsOf(results: ProcessResult[], defaultExecutable: string | null): Record<string, string | null> {
  const v = dict<string | null>();
  const first = (results.find((r) => r.environment.executable === defaultExecutable) ?? results[0])?.versions;
  if (first)
    Object.assign(v, { python: first.python, torch: first.torch, torchvision: first.torchvision, numpy: first.numpy });
  for (const r of results) if (r.versions.library) v[r.versions.library.name] ??= r.versions.library.version;
  return v;
}

function describeHost(env: Record<string, unknown> | undefined, info: RunInfo): string {
  const cpu = info.host.cpuModel ?? 'unknown CPU';
  const gpu = env?.gpu_name ? ` with an ${env.gpu_name}` : '';
  return `a ${info.host.cpus}-core ${cpu} ${info.host.platform} machine${gpu}, ${info.protocol.threads} torch thread${info.protocol.threads === 1 ? '' : 's'} per process`;
}
