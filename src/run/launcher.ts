// How a cell process starts: a cold interpreter (execa), or a fork of a clean parent (forkserver.ts).
import os from 'node:os';
import { spawnCell, type Running, type SpawnSpec } from './spawn.ts';

/** Starts cell processes. */
export interface Launcher {
  mode: 'cold' | 'fork';
  spawn(s: SpawnSpec): Running;
  close(): Promise<void>;
}

/** A fresh interpreter per process: the reference way, always available. */
export function coldLauncher(): Launcher {
  return { mode: 'cold', spawn: spawnCell, close: async () => {} };
}

/**
 * CPU sets for `jobs` parallel workers: the machine's cores split into equal contiguous slices, so no
 * two workers share a core. Returns [] for one job (no pinning: the process may use any core).
 */
export function cpuSets(jobs: number, threads: number, cpus = os.cpus().length): number[][] {
  if (jobs <= 1) return [];
  const per = Math.floor(cpus / jobs);
  if (per < 1) throw new Error(`--jobs ${jobs} needs at least ${jobs} CPU cores; this machine has ${cpus}.`);
  if (per < threads) throw new Error(`--jobs ${jobs} leaves ${per} core(s) per worker, fewer than the protocol's ${threads} torch threads.`);
  return Array.from({ length: jobs }, (_, i) => Array.from({ length: per }, (_, k) => i * per + k));
}
