// Runs a run plan's jobs here: one launcher per environment, the run's signals, progress, the journal.
// Everything it needs comes typed from the run plan; nothing is parsed back from strings.
import fs from 'node:fs';
import { UserError } from '../../errors.ts';
import { REPO_ROOT } from '../../repository.ts';
import { execute } from './execute.ts';
import { buildRequest, type Job } from '../../run/jobs.ts';
import { appendRecord, readJournal } from '../../records/journal.ts';
import { coldLauncher, cpuSets, type Launcher, type ProcessJob } from './launcher.ts';
import { pythonPathOf, runFiles, type RunPlan } from '../../run/run-plan.ts';
import { precisionGate } from '../../sampling/precision-gate.ts';
import { progress } from './progress.ts';
import { repeatGate } from '../../sampling/repeat-gate.ts';
import { roundsOf } from '../../run/schedule.ts';
import type { BetweenModel } from '../../stats/between-run.ts';
import { failedForSpace } from './disk.ts';
import { noSpaceError, writeAtomic } from '../../util/files.ts';

/** How to run the jobs here. */
export interface LocalOptions {
  dir: string;
  /** Interpreter per environment name. */
  pythons: Record<string, string>;
  start: 'cold' | 'fork';
  concurrency: number;
  log: (line: string) => void;
  /** The command that resumes this run, for the messages that stop it. */
  resume: string;
  /** The run-to-run component the precision target judges paired cells with (src/stats/between-run.ts). */
  between?: BetweenModel | null;
}

/** Starts one launcher per environment the jobs use (a fork server each in fork mode), into `launchers` as each is ready. */
async function startLaunchers(
  jobs: Job[],
  o: LocalOptions,
  threads: number,
  launchers: Map<string, Launcher>,
): Promise<void> {
  for (const name of new Set(jobs.map((j) => j.cell.environment))) {
    launchers.set(
      name,
      o.start === 'fork'
        ? await (await import('./forkserver.ts')).forkLauncher(o.pythons[name], threads)
        : await coldLauncher(o.pythons[name], threads),
    );
  }
}

/**
 * The round of each job of an interleaved schedule (schedule.ts), by key; a sequential schedule is one
 * round, so that its processes share one fork parent as before.
 */
function roundOf(rp: RunPlan): Map<string, number> {
  if (rp.schedule.kind !== 'interleaved') return new Map();
  return new Map(roundsOf(rp.jobs).flatMap((round, i) => round.map((j): [string, number] => [j.key, i])));
}

/** Writes a job's request and gives its process as data; its TMPDIR is fresh (a killed process cannot clean up). */
function prepare(rp: RunPlan, job: Job, o: LocalOptions, round: number): ProcessJob {
  const files = runFiles(o.dir, job);
  writeAtomic(files.request, JSON.stringify(buildRequest(rp, job), null, 1) + '\n');
  fs.rmSync(files.scratch, { recursive: true, force: true });
  fs.mkdirSync(files.scratch, { recursive: true });
  return {
    mode: job.kind === 'memory' ? 'memory' : 'time',
    python: o.pythons[job.cell.environment],
    request: files.request,
    result: files.result,
    stdout: files.stdout,
    stderr: files.stderr,
    pythonPath: pythonPathOf(rp.spec, job.cell),
    threads: rp.protocol.threads,
    tmpdir: files.scratch,
    cwd: REPO_ROOT,
    timeoutS: rp.protocol.timeout_s,
    round,
  };
}

/** CPU sets of the workers, with the warnings --jobs deserves. */
function slotsFor(rp: RunPlan, o: LocalOptions): number[][] {
  let slots: number[][];
  try {
    slots = cpuSets(o.concurrency, rp.protocol.threads);
  } catch (error) {
    throw new UserError((error as Error).message);
  }
  if (o.concurrency > 1) {
    o.log(
      `--jobs ${o.concurrency}: workers pinned to cores ${slots.map((c) => c.join(',')).join(' | ')}; two processes of one cell never run at once.`,
    );
    if (rp.device === 'cuda')
      o.log(
        `warning: --jobs ${o.concurrency} on cuda: parallel processes share the GPU, so their timings disturb each other; measure GPU numbers with --jobs 1.`,
      );
    if (rp.protocol.threads * o.concurrency > slots.flat().length)
      o.log('warning: more torch threads than pinned cores.');
  }
  return slots;
}

/**
 * Runs `jobs` (the plan's jobs not yet journaled, in schedule order), journaling each as it finishes.
 * Resolves `true` when SIGINT/SIGTERM stopped the run (what finished is kept).
 */
export async function runLocally(rp: RunPlan, jobs: Job[], o: LocalOptions): Promise<boolean> {
  const slots = slotsFor(rp, o);
  let stopped = false;
  let killAll = () => {};
  const onSignal = (signal: string) => {
    if (stopped) return;
    stopped = true;
    o.log(`${signal}: stopping; what finished is kept. Resume with: ${o.resume}`);
    killAll();
  };
  const handlers = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };
  process.on('SIGINT', handlers.SIGINT);
  process.on('SIGTERM', handlers.SIGTERM);
  const bar = progress(jobs.map((j) => j.cell.id));
  // Precision-driven sampling (protocol.precision): a cell's next timing process is skipped once the
  // processes it ran, journaled ones included (--resume), make its median precise enough.
  const gate = precisionGate(rp.protocol, o.between ?? null);
  // A process that failed in a way the cell's other processes would repeat stops the cell (repeat-gate.ts).
  const repeat = repeatGate();
  for (const r of readJournal(o.dir).records) {
    gate.observe(r);
    repeat.observe(r);
  }
  const launchers = new Map<string, Launcher>();
  const rounds = roundOf(rp);
  const started = new Set<string>();
  const dropped = new Set<string>();
  try {
    // Started after the signal handlers: a Ctrl-C while fork servers import torch stops the run cleanly.
    await startLaunchers(jobs, o, rp.protocol.threads, launchers);
    await execute({
      jobs,
      concurrency: o.concurrency,
      cpuSets: slots,
      stopped: () => stopped,
      onKillable: (k) => {
        killAll = k;
      },
      skip: (job) => repeat.skip(job) || gate.skip(job),
      onSkip: (job) => {
        if (!dropped.has(job.key)) bar.skip(job.cell.id);
      },
      onStart: (job) => {
        started.add(job.key);
        bar.start(job.cell.id, `${job.cell.id} ${job.kind}#${job.index}`);
      },
      onDone: (record, job, exit) => {
        fs.rmSync(runFiles(o.dir, job).scratch, { recursive: true, force: true });
        // A process that failed for want of space is not a result of its cell: the run stops, --resume reruns it.
        if (record.outcome.kind === 'failed' && failedForSpace(exit, o.dir))
          throw noSpaceError(
            runFiles(o.dir, job).result,
            { code: 'ENOSPC' },
            `The process of ${job.cell.id} could not write its files.`,
          );
        appendRecord(o.dir, record);
        gate.observe(record);
        // A stopped cell's unstarted processes leave the progress total now, not when the schedule reaches them.
        if (repeat.observe(record)) {
          for (const j of jobs.filter((x) => x.cell.id === job.cell.id && !started.has(x.key) && !dropped.has(x.key))) {
            dropped.add(j.key);
            bar.skip(j.cell.id);
          }
        }
        const st = record.outcome.kind === 'failed' ? 'error' : record.outcome.result.status;
        bar.finish(job.cell.id, `${job.cell.id} ${job.kind}#${job.index}`, st, record.wall_s);
      },
      launch: (job) => ({
        launcher: launchers.get(job.cell.environment)!,
        process: prepare(rp, job, o, rounds.get(job.key) ?? 0),
      }),
    });
  } finally {
    bar.close();
    for (const l of launchers.values()) await l.close();
    process.off('SIGINT', handlers.SIGINT);
    process.off('SIGTERM', handlers.SIGTERM);
  }
  return stopped;
}
