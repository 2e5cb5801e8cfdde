// Pure: the sbatch script of a submission, one array task per shard, each running the shard's driver.
import path from 'node:path';
import { UserError } from '../../errors.ts';
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
  checkScriptValues(s);
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

/**
 * Every value that reaches the script is refused if it could end a line or a word it sits in: a newline
 * in a #SBATCH directive or in the comment would start a line bash runs. Values in shell
 * words are quoted besides; the short directive values (partition, time, job name) must also be free of
 * spaces. The shared directory may hold spaces: sbatch reads the rest of its #SBATCH line as the path.
 */
export function checkScriptValues(s: SlurmSettings): void {
  const control = /[\u0000-\u001f\u007f-\u009f]/;
  const words: [string, string | null][] = [
    ['--python', s.python],
    ...s.sbatchArgs.map((a): [string, string] => ['--sbatch-arg', a]),
  ];
  const directives: [string, string | null][] = [
    ['job name (the spec name)', s.jobName],
    ['--partition', s.partition],
    ['--time-limit', s.timeLimit],
  ];
  for (const [name, value] of [...words, ...directives, ['--shared-dir', s.sharedDir] as [string, string]]) {
    if (value !== null && control.test(value))
      throw new UserError(
        `${name} must not contain line breaks or control characters (got ${JSON.stringify(value)}). Write it on one line.`,
      );
  }
  for (const [name, value] of directives) {
    if (value !== null && /\s/.test(value))
      throw new UserError(
        `${name} must not contain spaces: it goes on an #SBATCH line (got ${JSON.stringify(value)}).`,
      );
  }
}
