// The run orchestration that run, bench-change and bisect share: a prepared spec's planned processes run
// under the run directory's lock and a journal (new or resumed), then results.json, the reports and the
// summary. The caller gives the executor that runs the processes (src/executors/registry.ts), local or run's.
import fs from 'node:fs';
import path from 'node:path';
import { EXIT, ExitCode, UserError } from '../errors.ts';
import { aggregate } from '../results/aggregate.ts';
import { earlierRuns, type EarlierCell } from '../results/earlier.ts';
import { betweenModel } from '../stats/between-run.ts';
import { localHost } from '../results/host.ts';
import { writeResults } from '../results/write.ts';
import { linksUnder, NoSpaceError, writeAtomic } from '../util/files.ts';
import { pointLatest } from '../results/latest.ts';
import type { Results } from '../results/model.ts';
import { writeRunReports } from '../report/run-reports.ts';
import { appendRecord, readJournal, type JournalHeader } from '../records/journal.ts';
import type { ExecutorFlags, RegisteredExecutor } from '../executors/registry.ts';
import type { ExecutorRunOptions } from '../executors/executor.ts';
import { resumeCommand } from '../run/resume.ts';
import { runPlan, timestamp, type RunPlan } from '../run/run-plan.ts';
import { checkCuda, interpreters } from '../env/python.ts';
import { withEnvironments } from '../env/recorded.ts';
import { newSeed } from '../run/schedule.ts';
import { recordedFlags } from '../settings/settings.ts';
import { lockRunDir, thisHolder } from '../executors/local/lock.ts';
import { stoppedEarly } from '../sampling/repeat-gate.ts';
import type { Prepared } from '../source/prepare.ts';
import { recordSources, runSources } from '../results/sources.ts';
import type { ValidSpec } from '../validate/valid.ts';
import { downloadHubWeights, missingHubWeights } from '../run/downloads.ts';
import { announceBuilds, fewProcessesWarning, probeBeforeRun, refuseCudaBeforeBuilds } from './start.ts';
import { printRunSummary } from './summary.ts';

/** Options of `run`: every executor's (the run settings' flags among them), each executor's own, and how to run. */
export interface RunOptions extends ExecutorRunOptions, ExecutorFlags {
  /** Download hub weights the local cache lacks before the first cell (src/run/downloads.ts). */
  allowDownloads?: boolean;
  /** An executor's name (src/executors/registry.ts); local when absent. */
  executor?: string;
  /** false (--no-probe): skip the subject probe at the start. */
  probe?: boolean;
}

/** Where a measured run is: the lock holder's name (the command), and the executor that runs its processes here. */
export interface MeasureAt {
  command: string;
  executor: RegisteredExecutor;
}

const log = (s: string) => process.stderr.write(`benchgrid: ${s}\n`);

/** What `measure` runs: a loaded spec with its sources applied. */
export type Measured = ValidSpec & Prepared;

/** What `measure` returns: the run directory, its results, and the cells it planned (for exitForRun). */
export interface Measurement {
  dir: string;
  results: Results;
  planned: Set<string>;
}

/**
 * Runs the planned processes of a prepared spec under a journal header (new when `fresh`, else resumed)
 * while holding the run directory's lock, writes results.json and the reports, prints the summary.
 * The caller decides the exit (exitForRun); an interrupted run throws 130.
 */
export async function measure(
  loaded: Measured,
  header: JournalHeader,
  opts: RunOptions & { fresh: boolean },
  at: MeasureAt,
): Promise<Measurement> {
  // The settings the header recorded: a resumed run measures as it started (runSettings, from its flags).
  const rp = runPlan({
    spec: loaded.spec,
    plan: loaded.plan,
    manifests: loaded.manifests,
    flags: recordedFlags(header.overrides, header.schedule),
    seed: newSeed,
    selection: { only: header.only, cells: header.cells ?? null },
  });
  const dir = path.resolve(opts.resume ?? opts.out ?? path.join('results', loaded.spec.name, timestamp()));
  const existed = fs.existsSync(dir);
  // One benchgrid writes a run directory at a time: a second run or --resume on a live one is refused.
  const release = lockRunDir(dir, thisHolder(at.command), log);
  try {
    if (opts.fresh) refuseExisting(dir);
    const results = await measureLocked(rp, header, dir, opts, { loaded, executor: at.executor });
    return { dir, results, planned: new Set(rp.jobs.map((j) => j.cell.id)) };
  } finally {
    release();
    if (!existed) removeIfEmpty(dir);
  }
}

/** Builds what is missing, probes the subjects, runs the cell processes not yet journaled, and writes the results. */
async function measureLocked(
  rp: RunPlan,
  header: JournalHeader,
  dir: string,
  opts: RunOptions & { fresh: boolean },
  { loaded, executor }: { loaded: Measured; executor: RegisteredExecutor },
): Promise<Results> {
  const spec = loaded.spec;
  const execute = executeHere(executor);
  const done = new Set(readJournal(dir).records.map((r) => r.key));
  const todo = rp.jobs.filter((j) => !done.has(j.key));
  const warning = fewProcessesWarning(rp.protocol.processes);
  if (warning) log(warning);
  // Never the header's interpreter: run() asked for --python again on a resume (src/run/resume.ts).
  const python = opts.python;
  const resume = resumeCommand(dir, header);
  const envNames = new Set(todo.map((j) => j.cell.environment));
  if (todo.length > 0) refuseCudaBeforeBuilds(rp.device, python);
  announceBuilds(spec, envNames, python, log);
  const { pythons, failed } = await interpreters(spec, envNames, python, log);
  const runnable = todo.filter((j) => failed[j.cell.environment] === undefined);
  if (rp.device === 'cuda' && runnable.length > 0) await checkCuda(pythons[runnable[0].cell.environment]);
  if (opts.allowDownloads) {
    // huggingface_hub is the transformers environment's: the first process of a subject with hub weights names it.
    const hub = missingHubWeights(spec, new Set(runnable.map((j) => j.cell.subject)));
    const first = runnable.find((j) => spec.subjects[j.cell.subject]?.model.weights?.kind === 'hub');
    if (hub.length > 0 && first) await downloadHubWeights(hub, pythons[first.cell.environment], log);
  }
  if (opts.probe !== false && runnable.length > 0) await probeBeforeRun(rp, runnable, pythons, log);
  if (opts.fresh) startJournal(dir, header, spec.data);
  recordUnbuilt(
    dir,
    todo.filter((j) => failed[j.cell.environment] !== undefined),
    failed,
  );
  const unsupported = rp.plan.cells.filter((c) => rp.selected.has(c.id) && c.status !== 'planned').length;
  log(
    `${spec.name}: ${rp.selected.size} cells${unsupported ? ` (${rp.selected.size - unsupported} measured, ${unsupported} unsupported)` : ''}, ${rp.jobs.length} processes (${runnable.length} to run) on ${rp.device}, ${rp.schedule.kind} schedule (seed ${rp.schedule.seed}); results in ${path.relative(process.cwd(), dir) || dir}`,
  );
  const start = opts.start ?? header.start;
  const concurrency = opts.jobs ?? header.jobs ?? 1;
  // This spec's earlier runs here: the run-to-run component of every published interval is learnt from them.
  const earlier = earlierRuns({
    spec: rp.spec.name,
    device: rp.device,
    hostname: localHost().hostname,
    start,
    protocol: rp.protocol,
    dir,
  });
  const between =
    rp.protocol.precision === null
      ? null
      : betweenModel(
          earlier.map((r) => new Map([...r].map(([id, e]) => [id, { mean: e.mean, variance: e.variance }]))),
        );
  const stopped = await keepingJournal(dir, resume, () =>
    execute(rp, runnable, { dir, pythons, start, concurrency, log, resume, between }),
  );
  // What each environment holds (src/env/recorded.ts): compare names a transitive version that moved.
  const results = await withEnvironments(
    recordSources(
      resultsOf(rp, header, dir, stopped, { start, jobs: concurrency, sources: loaded.byTool, earlier }),
      loaded.byTool,
    ),
    pythons,
  );
  await keepingJournal(dir, resume, async () => {
    writeResults(path.join(dir, 'results.json'), results);
    if (!stopped) pointLatest(dir, spec.name);
    await writeRunReports(dir, results, spec);
  });
  printRunSummary(results, spec, dir, opts.json);
  if (stopped) throw new ExitCode(EXIT.interrupted);
  return results;
}

/**
 * Journals every process of a cell whose environment could not be built as failed, with the build's
 * error, so that the cell's status says why and the results stay complete. A later --resume does not
 * retry them: the journal holds them; start a new run once the environment builds.
 */
function recordUnbuilt(dir: string, cellProcesses: RunPlan['jobs'], failed: Record<string, string>): void {
  const now = new Date().toISOString();
  for (const cellProcess of cellProcesses) {
    const why = failed[cellProcess.cell.environment];
    appendRecord(dir, {
      type: 'process',
      key: cellProcess.key,
      cell: cellProcess.cell.id,
      kind: cellProcess.kind,
      index: cellProcess.index,
      started: now,
      wall_s: 0,
      cpus: null,
      start: 'cold',
      outcome: {
        kind: 'failed',
        status: 'error',
        reason: `environment ${cellProcess.cell.environment} could not be built: ${why.split('\n')[0]}`,
        tail: why.slice(-2000),
      },
    });
  }
}

/**
 * Runs `f`; a disk that fills up on the way (a NoSpaceError from src/util/files.ts) is told with
 * what is kept and how to finish: the journal holds every process that finished, and --resume runs the rest.
 */
async function keepingJournal<T>(dir: string, resume: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (error) {
    if (!(error instanceof NoSpaceError)) throw error;
    const kept = readJournal(dir).records.length;
    throw new UserError(
      `${error.message} What was measured is kept: ${kept} finished process(es) in ${path.join(dir, 'journal.jsonl')}. Free some space, then finish the run with: ${resume}`,
      EXIT.runFailed,
    );
  }
}
/** Refuses to start a new run in a directory that already holds one. */
function refuseExisting(dir: string): void {
  if (fs.existsSync(path.join(dir, 'journal.jsonl'))) {
    throw new UserError(
      `${dir} already holds a run; resume it with --resume ${path.relative(process.cwd(), dir) || dir}, or choose another --out.`,
    );
  }
  const links = linksUnder(dir, 1);
  if (links.length > 0)
    throw new UserError(
      `${links[0]} is a symbolic link; a run writes only into a directory of its own. Choose another --out.`,
    );
}

/** Writes the journal header and the resolved spec into the (locked) run directory. */
function startJournal(dir: string, header: JournalHeader, specData: unknown): void {
  appendRecord(dir, header);
  // Declaration order is meaningful in a spec (it orders the cells): written as it is, not sorted.
  writeAtomic(path.join(dir, 'spec.json'), JSON.stringify(specData, null, 1) + '\n');
}

/** Removes a run directory this run created when nothing was written into it (a refused start). */
function removeIfEmpty(dir: string): void {
  try {
    fs.rmdirSync(dir);
  } catch {
    // Not empty (the run wrote its journal), or already gone.
  }
}

function resultsOf(
  rp: RunPlan,
  header: JournalHeader,
  dir: string,
  partial: boolean,
  how: { start: 'cold' | 'fork'; jobs: number; sources: Prepared['byTool']; earlier: Map<string, EarlierCell>[] },
): Results {
  const { sources, earlier, ...settings } = how;
  const records = readJournal(dir).records;
  return aggregate(
    {
      spec: rp.spec,
      plan: rp.plan,
      selected: rp.selected,
      protocol: rp.protocol,
      device: rp.device,
      partial,
      measuredOn: header.started.slice(0, 10),
      host: localHost(),
      earlier,
      run: {
        ...settings,
        overrides: rp.overrides,
        only: rp.selection.only,
        cells: rp.selection.cells,
        schedule: rp.schedule,
        started: header.started,
        finished: new Date().toISOString(),
        dir,
        stopped_early: stoppedEarly(rp.jobs, records),
        ...(sources.size > 0 ? { tool_sources: runSources(sources) } : {}),
        ...(header.change ? { change: header.change } : {}),
      },
    },
    records,
  );
}

/** How the executor runs a planned run's processes here; refused, before anything is built, for one that submits. */
function executeHere(executor: RegisteredExecutor): NonNullable<RegisteredExecutor['execute']> {
  if (!executor.execute)
    throw new UserError(`--executor ${executor.name} submits its processes; it cannot run a run planned here.`);
  return executor.execute;
}
