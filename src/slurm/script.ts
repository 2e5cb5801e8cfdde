// Pure: the sbatch script of a submission, one array task per shard, each running the shard's driver.
import path from 'node:path';
import type { SlurmSettings } from './settings.ts';

/** Where a submission keeps its pieces, relative to the shared directory. */
export const LAYOUT = {
  script: 'job.sbatch',
  record: 'slurm.json',
  logs: 'logs',
  shard: (i: number) => `shard-${i}`,
  log: (i: number | string) => `logs/task-${i}.log`,
  exit: (i: number | string) => `logs/task-${i}.exit`,
};

/** Quotes a word for bash: single quotes, with embedded ones closed and escaped. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The batch script. Each task runs `python driver.py shard-$SLURM_ARRAY_TASK_ID` and leaves its exit
 * status in logs/task-N.exit (clusters without accounting keep no record of finished tasks for long).
 * Extra sbatch arguments go on the sbatch command line, not here, so they reach sbatch exactly as given
 * (the header comment shows the whole command).
 */
export function sbatchScript(s: SlurmSettings, spec: { name: string; digest: string }): string {
  const dir = s.sharedDir;
  const q = (p: string) => shellQuote(path.join(dir, p));
  const directives = [
    `--job-name=${s.jobName}`,
    `--array=0-${s.shards - 1}`,
    `--output=${path.join(dir, LAYOUT.logs, 'task-%a.log')}`,
    '--open-mode=append',
    '--ntasks=1',
    `--cpus-per-task=${s.cpusPerTask}`,
    ...(s.partition ? [`--partition=${s.partition}`] : []),
    ...(s.gpusPerTask !== null && s.gpusPerTask > 0 ? [`--gpus-per-task=${s.gpusPerTask}`] : []),
    ...(s.timeLimit ? [`--time=${s.timeLimit}`] : []),
  ];
  return [
    '#!/bin/bash',
    `# benchgrid: spec ${spec.name} (${spec.digest.slice(0, 12)}), ${s.shards} shard(s), one array task each.`,
    `# Written by \`benchgrid run --executor slurm\`; to resubmit by hand: sbatch ${[...s.sbatchArgs, path.join(dir, LAYOUT.script)].map(shellQuote).join(' ')}`,
    ...directives.map((d) => `#SBATCH ${d}`),
    'set -u',
    `shard=${q('shard-')}"$SLURM_ARRAY_TASK_ID"`,
    `echo "benchgrid: task $SLURM_ARRAY_TASK_ID of job \${SLURM_ARRAY_JOB_ID:-?} on $(hostname) at $(date -u +%FT%TZ)"`,
    `${shellQuote(s.python)} "$shard/driver.py" "$shard"`,
    'rc=$?',
    `echo "$rc" > ${q('logs/task-')}"$SLURM_ARRAY_TASK_ID".exit`,
    'exit "$rc"',
    '',
  ].join('\n');
}
