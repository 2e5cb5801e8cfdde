// How a cell process starts: a cold interpreter, or a fork of a clean parent (forkserver.ts). Both go
// through the harness's launcher (spawn.ts, launch.py), which the bundle driver uses too, and take the job
// as data (mode, request, result, logs): nothing is parsed back from a command line.
import os from 'node:os';
import { startLauncher, type LaunchCommand, type Running } from './spawn.ts';

/** One cell process to start, as the executor knows it. */
export interface ProcessJob {
  /** What the request asks for; the fork launcher starts memory processes cold (forkserver.ts). */
  mode: 'time' | 'memory';
  /** The interpreter of the cell's environment. */
  python: string;
  request: string;
  result: string;
  stdout: string;
  stderr: string;
  /** Directories on the process's PYTHONPATH (the harness, the runners). */
  pythonPath: string[];
  threads: number;
  /** The process's own TMPDIR. */
  tmpdir: string;
  cwd: string;
  timeoutS: number;
  /** CPU cores to pin to, when given. */
  cpus?: number[];
  /** The schedule's round it belongs to: the fork launcher forks each round from a fresh parent (forkserver.ts). */
  round?: number;
}

/** Starts cell processes. */
export interface Launcher {
  mode: 'cold' | 'fork';
  start(job: ProcessJob): Running;
  close(): Promise<void>;
}

/** A job as the launcher's command: `python -m benchgrid_harness --request R --result S`, started `start`. */
export function commandOf(job: ProcessJob, start: 'cold' | 'fork'): LaunchCommand {
  return {
    start,
    python: job.python,
    argv: ['-m', 'benchgrid_harness', '--request', job.request, '--result', job.result],
    cwd: job.cwd,
    pythonpath: job.pythonPath,
    threads: job.threads,
    tmpdir: job.tmpdir,
    stdout: job.stdout,
    stderr: job.stderr,
    cpus: job.cpus ?? null,
    timeout_s: job.timeoutS,
  };
}

/**
 * A fresh interpreter per process: the reference way, always available. A launcher that cannot start
 * (no such interpreter) is no error here: each of its processes is recorded as a spawn error.
 */
export async function coldLauncher(python: string, threads: number): Promise<Launcher> {
  const launcher = await startLauncher(python, 'benchgrid_harness.launch', threads, false);
  return { mode: 'cold', start: (job) => launcher.run(commandOf(job, 'cold')), close: () => launcher.close() };
}

/**
 * CPU sets for `workers` processes at once (`--jobs`): the machine's cores split into equal contiguous slices, so no
 * two workers share a core. Returns [] for one worker (no pinning: the process may use any core).
 */
export function cpuSets(workers: number, threads: number, cpus = os.cpus().length): number[][] {
  if (workers <= 1) return [];
  const per = Math.floor(cpus / workers);
  if (per < 1) throw new Error(`--jobs ${workers} needs at least ${workers} CPU cores; this machine has ${cpus}.`);
  if (per < threads)
    throw new Error(
      `--jobs ${workers} leaves ${per} core(s) per worker, fewer than the protocol's ${threads} torch threads.`,
    );
  return Array.from({ length: workers }, (_, i) => Array.from({ length: per }, (_, k) => i * per + k));
}
