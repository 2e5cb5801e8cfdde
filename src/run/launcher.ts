// How a cell process starts: a cold interpreter (execa), or a fork of a clean parent (forkserver.ts).
// Both take the job as data (mode, request, result, logs): nothing is parsed back from a command line.
import os from 'node:os';
import { spawnCell, type Running, type SpawnSpec } from './spawn.ts';

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
  env: Record<string, string>;
  cwd: string;
  timeoutS: number;
  /** CPU cores to pin to, when given. */
  cpus?: number[];
}

/** Starts cell processes. */
export interface Launcher {
  mode: 'cold' | 'fork';
  start(job: ProcessJob): Running;
  close(): Promise<void>;
}

/** The harness's own arguments: the request and where to write the result. */
export function harnessArgs(job: ProcessJob): string[] {
  return ['--request', job.request, '--result', job.result];
}

/** The cold command line of a job: `python -m benchgrid_harness --request R --result S`. */
export function coldSpawn(job: ProcessJob): SpawnSpec {
  return {
    command: job.python, args: ['-m', 'benchgrid_harness', ...harnessArgs(job)], env: job.env, cwd: job.cwd,
    timeoutS: job.timeoutS, stdoutFile: job.stdout, stderrFile: job.stderr, cpus: job.cpus,
  };
}

/** A fresh interpreter per process: the reference way, always available. */
export function coldLauncher(): Launcher {
  return { mode: 'cold', start: (job) => ({ ...spawnCell(coldSpawn(job)), start: 'cold' }), close: async () => {} };
}

/**
 * CPU sets for `workers` processes at once (`--jobs`): the machine's cores split into equal contiguous slices, so no
 * two workers share a core. Returns [] for one worker (no pinning: the process may use any core).
 */
export function cpuSets(workers: number, threads: number, cpus = os.cpus().length): number[][] {
  if (workers <= 1) return [];
  const per = Math.floor(cpus / workers);
  if (per < 1) throw new Error(`--jobs ${workers} needs at least ${workers} CPU cores; this machine has ${cpus}.`);
  if (per < threads) throw new Error(`--jobs ${workers} leaves ${per} core(s) per worker, fewer than the protocol's ${threads} torch threads.`);
  return Array.from({ length: workers }, (_, i) => Array.from({ length: per }, (_, k) => i * per + k));
}
