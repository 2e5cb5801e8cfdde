// Submits a submission directory's script with sbatch and keeps the record (`slurm.json`) that
// `benchgrid ingest DIR` later finishes from.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { EXIT, UserError } from '../../errors.ts';
import { LAYOUT } from './script.ts';
import { readJsonFile } from '../../util/json-file.ts';

/** slurm.json: what was submitted. */
export interface Submission {
  format: 1;
  job_id: string;
  cluster: string | null;
  spec: { name: string; digest: string };
  shards: number;
  /** sbatch's argument list, as run. */
  sbatch: string[];
  submitted: string;
  /** Where the results go once the tasks end. */
  out: string;
}

/** Runs `sbatch --parsable [extra args] job.sbatch`; returns the job id (and cluster, when federated). */
export async function sbatch(
  dir: string,
  extraArgs: string[],
): Promise<{ jobId: string; cluster: string | null; argv: string[] }> {
  const argv = ['--parsable', ...extraArgs, path.join(dir, LAYOUT.script)];
  const r = await execa('sbatch', argv, { reject: false, timeout: 120_000, cwd: dir });
  if (r.exitCode === undefined) {
    const notFound = /ENOENT/.test(r.message ?? '');
    throw new UserError(
      notFound
        ? 'sbatch is not on PATH: `--executor slurm` runs on a Slurm login node. Elsewhere, `benchgrid export` a bundle and run its driver.py by hand (docs/run-anywhere.md).'
        : `cannot run sbatch: ${r.shortMessage}`,
      EXIT.runFailed,
    );
  }
  if (r.exitCode !== 0)
    throw new UserError(
      `sbatch refused the job (exit ${r.exitCode}): ${(r.stderr || r.stdout).trim()}\nThe script is ${path.join(dir, LAYOUT.script)}.`,
      EXIT.runFailed,
    );
  const [jobId, cluster] = r.stdout.trim().split('\n').pop()!.split(';');
  if (!/^\d+$/.test(jobId)) throw new UserError(`sbatch answered '${r.stdout.trim()}', not a job id.`, EXIT.runFailed);
  return { jobId, cluster: cluster ?? null, argv: ['sbatch', ...argv] };
}

/** Writes slurm.json. */
export function writeSubmission(dir: string, s: Submission): void {
  fs.writeFileSync(path.join(dir, LAYOUT.record), JSON.stringify(s, null, 1) + '\n');
}

/** Reads slurm.json, or null when the directory is not a Slurm submission. */
export function readSubmission(dir: string): Submission | null {
  const file = path.join(dir, LAYOUT.record);
  if (!fs.existsSync(file)) return null;
  return readJsonFile(file, 1024 * 1024, 'Slurm submission record') as Submission;
}
