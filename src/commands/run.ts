// `benchgrid run <spec>`: every planned cell in fresh Python processes; journal, results, reports.
import fs from 'node:fs';
import path from 'node:path';
import { EXIT, ExitCode, UserError } from '../errors.ts';
import { onlyFilter } from '../plan/only.ts';
import { aggregate } from '../results/aggregate.ts';
import { localHost } from '../results/host.ts';
import { writeResults } from '../results/write.ts';
import type { Results } from '../results/model.ts';
import { HARNESS_DIR, REPO_ROOT } from '../spec/manifests.ts';
import { execute, jobFiles } from '../run/execute.ts';
import { buildJobs, buildRequest, effectiveProtocol, type Overrides } from '../run/jobs.ts';
import { appendRecord, readJournal, type JournalHeader } from '../run/journal.ts';
import { progress } from '../run/progress.ts';
import { checkCuda, interpreters } from '../run/python.ts';
import { processEnv } from '../run/spawn.ts';
import { coldLauncher, cpuSets, type Launcher } from '../run/launcher.ts';
import { loadOrExit } from './load-or-exit.ts';

/** Options of `run`. */
export interface RunOptions {
  out?: string;
  resume?: string;
  only?: string;
  device?: 'cpu' | 'cuda';
  processes?: number;
  samples?: number;
  python?: string;
  json?: boolean;
  changedSince?: string;
  jobs?: number;
  start?: 'cold' | 'fork';
}

/** Runs a spec (or resumes a run directory); exit 0 when every planned cell ran, 130 when interrupted. */
export async function run(specArg: string | undefined, opts: RunOptions): Promise<void> {
  if ((opts as { executor?: string }).executor === 'slurm') return (await import('../slurm/run.ts')).runOnSlurm(specArg, opts);
  let header: JournalHeader | null = null;
  let dir: string;
  if (opts.resume) {
    dir = path.resolve(opts.resume);
    header = readJournal(dir).header;
    if (!header) throw new UserError(`--resume ${opts.resume}: no journal.jsonl there; give the directory of a run started by \`benchgrid run\`.`);
  }
  const specFile = specArg ?? header?.spec.file;
  if (!specFile) throw new UserError('run needs a spec: benchgrid run specs/<name>.yaml');
  const { spec, plan, manifests } = await loadOrExit(specFile, true);
  if (header && header.spec.digest !== spec.digest) {
    throw new UserError(`--resume: ${specFile} changed since this run started (digest ${header.spec.digest.slice(0, 12)} -> ${spec.digest.slice(0, 12)}); results of two spec versions cannot be merged. Start a new run.`);
  }
  const overrides: Overrides = header?.overrides ?? pick({ processes: opts.processes, samples: opts.samples, device: opts.device });
  const device = header?.device ?? opts.device ?? spec.device;
  let only = header ? header.only : opts.only ?? null;
  if (opts.changedSince && !header) {
    const { invalidatedCells } = await import('../diff/invalidated.ts');
    const ids = await invalidatedCells(opts.changedSince, specFile);
    if (ids.length === 0) {
      process.stderr.write(`benchgrid: no cell of ${spec.name} changed since ${opts.changedSince}; nothing to run.\n`);
      return;
    }
    only = ids.join(',');
  }
  const protocol = effectiveProtocol(spec, overrides);
  const selectedFilter = onlyFilter(only ?? undefined, plan.cells.map((c) => c.id));
  const selected = new Set(plan.cells.filter((c) => selectedFilter(c.id)).map((c) => c.id));

  dir ??= path.resolve(opts.out ?? path.join('results', spec.name, timestamp()));
  if (!opts.resume && fs.existsSync(path.join(dir, 'journal.jsonl'))) {
    throw new UserError(`${dir} already holds a run; resume it with --resume ${path.relative(process.cwd(), dir) || dir}, or choose another --out.`);
  }
  const allJobs = buildJobs(plan, protocol, selected);
  const envNames = new Set(allJobs.map((j) => j.cell.environment));
  const python = opts.python ?? header?.python ?? undefined;
  const log = (s: string) => process.stderr.write(`benchgrid: ${s}\n`);
  const pythons = await interpreters(spec, envNames, python, log);
  if (device === 'cuda' && allJobs.length > 0) await checkCuda(pythons[allJobs[0].cell.environment]);

  fs.mkdirSync(dir, { recursive: true });
  if (!header) {
    header = {
      type: 'header', v: 1, spec: { name: spec.name, digest: spec.digest, file: path.resolve(specFile) },
      device, only, overrides, python: python ?? null, start: opts.start ?? defaultStart(device), jobs: opts.jobs ?? 1, started: new Date().toISOString(),
    };
    appendRecord(dir, header);
    // Declaration order is meaningful in a spec (it orders the cells): written as it is, not sorted.
    fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec.data, null, 1) + '\n');
  }
  const done = new Set(readJournal(dir).records.map((r) => r.key));
  const jobs = allJobs.filter((j) => !done.has(j.key));
  log(`${spec.name}: ${selected.size} cells, ${allJobs.length} processes (${jobs.length} to run) on ${device}; results in ${path.relative(process.cwd(), dir) || dir}`);

  let stopped = false;
  let killAll = () => {};
  const onSignal = (signal: string) => {
    if (stopped) return;
    stopped = true;
    log(`${signal}: stopping; what finished is kept. Resume with: benchgrid run --resume ${path.relative(process.cwd(), dir) || dir}`);
    killAll();
  };
  const handlers = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };
  process.on('SIGINT', handlers.SIGINT);
  process.on('SIGTERM', handlers.SIGTERM);
  // The harness, the tool's runner, and the reference's runner (whose adapter computes the expected result).
  const pythonPath = (cell: (typeof allJobs)[number]['cell']) => {
    const dirs = [HARNESS_DIR, spec.runners[cell.runner]];
    if (cell.reference) dirs.push(spec.runners[spec.tools[cell.reference].runner]);
    return [...new Set(dirs)];
  };
  // Each process gets its own TMPDIR inside the run directory, removed with the process's files if it
  // crashed: a killed process cannot clean up after itself.
  const scratch = (requestFile: string) => {
    const d = requestFile.replace(/\.request\.json$/, '.tmp');
    fs.rmSync(d, { recursive: true, force: true });
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const jobsN = opts.jobs ?? header.jobs ?? 1;
  let slots: number[][];
  try {
    slots = cpuSets(jobsN, protocol.threads);
  } catch (error) {
    throw new UserError((error as Error).message);
  }
  if (jobsN > 1) {
    log(`--jobs ${jobsN}: workers pinned to cores ${slots.map((c) => c.join(',')).join(' | ')}; two processes of one cell never run at once.`);
    if (device === 'cuda') log(`warning: --jobs ${jobsN} on cuda: parallel processes share the GPU, so their timings disturb each other; measure GPU numbers with --jobs 1.`);
    if (protocol.threads * jobsN > slots.flat().length) log('warning: more torch threads than pinned cores.');
  }
  const startMode = opts.start ?? header.start ?? defaultStart(device);
  const launchers = new Map<string, Launcher>();
  const launcherFor = async (envName: string): Promise<Launcher> => {
    const known = launchers.get(envName);
    if (known) return known;
    const made = startMode === 'fork' ? await (await import('../run/forkserver.ts')).forkLauncher(pythons[envName], [HARNESS_DIR], protocol.threads) : coldLauncher();
    launchers.set(envName, made);
    return made;
  };
  for (const name of envNames) await launcherFor(name);
  const bar = progress(jobs.length, new Set(jobs.map((j) => j.cell.id)).size);
  try {
    await execute({
      jobs,
      concurrency: jobsN,
      cpuSets: slots,
      stopped: () => stopped,
      onKillable: (k) => { killAll = k; },
      onStart: (job) => bar.start(`${job.cell.id} ${job.kind}#${job.index}`),
      onDone: (record) => {
        fs.rmSync(jobFiles(dir, { cell: { id: record.cell }, kind: record.kind, index: record.index } as never).request.replace(/\.request\.json$/, '.tmp'), { recursive: true, force: true });
        appendRecord(dir, record);
        const st = record.outcome.kind === 'failed' ? 'error' : record.outcome.result.status;
        bar.finish(`${record.cell} ${record.kind}#${record.index}`, st, record.wall_s);
      },
      launch: (job) => {
        const files = jobFiles(dir, job);
        fs.mkdirSync(path.dirname(files.request), { recursive: true });
        fs.writeFileSync(files.request, JSON.stringify(buildRequest(spec, job, protocol, device, manifests), null, 1) + '\n');
        return {
          requestFile: files.request,
          resultFile: files.result,
          launcher: launchers.get(job.cell.environment)!,
          spawn: {
            command: pythons[job.cell.environment],
            args: ['-m', 'benchgrid_harness', '--request', files.request, '--result', files.result],
            env: { ...processEnv(pythonPath(job.cell), protocol.threads), TMPDIR: scratch(files.request) },
            cwd: REPO_ROOT,
            timeoutS: protocol.timeout_s,
            stdoutFile: files.stdout,
            stderrFile: files.stderr,
          },
        };
      },
    });
  } finally {
    bar.close();
    for (const l of launchers.values()) await l.close();
    process.off('SIGINT', handlers.SIGINT);
    process.off('SIGTERM', handlers.SIGTERM);
  }

  const results = aggregate(
    { spec, plan, selected, protocol, device, partial: stopped, measuredOn: header.started.slice(0, 10), host: localHost(), run: { start: startMode, jobs: jobsN, overrides, only, started: header.started, finished: new Date().toISOString(), dir } },
    readJournal(dir).records,
  );
  writeResults(path.join(dir, 'results.json'), results);
  await writeReports(dir, results, spec);
  summarise(results, dir, opts.json);
  if (stopped) throw new ExitCode(EXIT.interrupted);
}

async function writeReports(dir: string, results: Results, spec: import('../spec/types.ts').Spec): Promise<void> {
  // A missing or broken report module is a bug and must say so, not silently skip the reports.
  const { writeRunReports } = await import('../report/run-reports.ts');
  await writeRunReports(dir, results, spec);
}

function summarise(results: Results, dir: string, json: boolean | undefined): void {
  const count = (s: string) => results.cells.filter((c) => c.status === s).length;
  const rel = path.relative(process.cwd(), dir) || dir;
  const line = `${results.cells.length} cells: ${count('ok')} ok, ${count('error')} error, ${count('unsupported')} unsupported${results.partial ? ' (partial run)' : ''}. Results: ${rel}/results.json`;
  process.stderr.write(`benchgrid: ${line}\n`);
  if (json) process.stdout.write(JSON.stringify({ dir, results: path.join(dir, 'results.json'), partial: results.partial, ok: count('ok'), error: count('error'), unsupported: count('unsupported') }) + '\n');
}

/**
 * Forked processes on the CPU, where issue 9 showed them to measure the same as cold ones
 * (docs/performance.md); cold on CUDA until the same is shown on a GPU. `--start cold` always works.
 */
function defaultStart(device: 'cpu' | 'cuda'): 'cold' | 'fork' {
  return device === 'cpu' ? 'fork' : 'cold';
}

function timestamp(): string {
  return new Date().toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
}

function pick<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
