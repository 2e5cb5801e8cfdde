// `run --executor slurm` options, resolved once against the spec's `slurm` defaults into full settings.
import path from 'node:path';
import { UserError } from '../../errors.ts';
import type { Spec } from '../../spec/types.ts';

/** The Slurm executor's own options of `run` (commander's names), declared in src/cli/run.ts. */
export interface SlurmFlags {
  partition?: string;
  gpusPerTask?: number;
  cpusPerTask?: number;
  timeLimit?: string;
  sbatchArg?: string[];
  sharedDir?: string;
  shards?: number;
  /** false with --no-wait. */
  wait?: boolean;
}

/** Fully defaulted settings of one submission. */
export interface SlurmSettings {
  jobName: string;
  partition: string | null;
  gpusPerTask: number | null;
  cpusPerTask: number;
  timeLimit: string | null;
  sbatchArgs: string[];
  /** Absolute directory visible at the same path on the login node and every compute node. */
  sharedDir: string;
  shards: number;
  /** Interpreter on the compute nodes that runs the driver and the cells (it needs torch). */
  python: string;
  wait: boolean;
}

// Slurm's --time formats: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or no limit.
const TIME =
  /^(\d+|\d+:\d{1,2}|\d+:\d{1,2}:\d{1,2}|\d+-\d{1,2}|\d+-\d{1,2}:\d{1,2}|\d+-\d{1,2}:\d{1,2}:\d{1,2}|UNLIMITED|INFINITE)$/;

/**
 * Command line over spec over defaults: one task per shard, at most one shard per cell; a GPU per task
 * for a cuda spec; as many CPUs per task as the protocol's torch threads.
 */
export function resolveSlurm(
  spec: Spec,
  o: SlurmFlags & { python?: string },
  x: { cells: number; device: 'cpu' | 'cuda'; threads: number; stamp: string; cwd: string },
): { settings: SlurmSettings; warnings: string[] } {
  const s = spec.slurm;
  const warnings: string[] = [];
  const timeLimit = o.timeLimit ?? s.time_limit;
  if (timeLimit !== null && !TIME.test(timeLimit)) {
    throw new UserError(`--time-limit must be a Slurm time such as 90, 1:30:00 or 2-00:00:00 (got '${timeLimit}').`);
  }
  const sbatchArgs = [...s.sbatch_args, ...(o.sbatchArg ?? [])];
  const bad = sbatchArgs.find((a) => /[\n\r]/.test(a) || !a.startsWith('-'));
  if (bad !== undefined)
    throw new UserError(
      `--sbatch-arg takes one sbatch option per use, such as --sbatch-arg=--qos=short (got ${JSON.stringify(bad)}).`,
    );
  let shards = o.shards ?? s.shards ?? 1;
  if (shards > x.cells) {
    warnings.push(
      `${shards} shards asked for but only ${x.cells} cell(s) to run; using ${Math.max(1, x.cells)} (a cell's processes stay in one shard).`,
    );
    shards = Math.max(1, x.cells);
  }
  const gpusPerTask = o.gpusPerTask ?? s.gpus_per_task ?? (x.device === 'cuda' ? 1 : null);
  if (x.device === 'cuda' && gpusPerTask === 0)
    warnings.push(
      'gpus-per-task is 0 on a cuda spec: the tasks will find no GPU unless the partition gives one anyway.',
    );
  const shared = o.sharedDir ?? s.shared_dir ?? path.join('results', spec.name, `slurm-${x.stamp}`);
  return {
    settings: {
      jobName: `benchgrid-${spec.name}`,
      partition: o.partition ?? s.partition,
      gpusPerTask,
      cpusPerTask: o.cpusPerTask ?? s.cpus_per_task ?? x.threads,
      timeLimit,
      sbatchArgs,
      sharedDir: path.resolve(x.cwd, shared),
      shards,
      python: o.python ?? 'python3',
      wait: o.wait !== false,
    },
    warnings,
  };
}
