// What Slurm says about the tasks of an array job: squeue (queued and recently finished), sacct
// (accounting, where the cluster has it). Parsers are pure; the queries run with argument arrays.
import { execa } from 'execa';

/** One array task as Slurm reports it. */
export interface TaskInfo {
  state: string;
  reason: string | null;
  exitCode: string | null;
}

/** States after which a task never runs again. */
export const TERMINAL = new Set([
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TIMEOUT',
  'OUT_OF_MEMORY',
  'NODE_FAIL',
  'PREEMPTED',
  'BOOT_FAIL',
  'DEADLINE',
  'REVOKED',
  'SPECIAL_EXIT',
]);

/** "123_4" -> [4]; "123_[0-2,5]" -> [0, 1, 2, 5]; anything of another job, or a step ("123_4.batch"), -> []. */
export function taskIds(jobField: string, jobId: string): number[] {
  const m = /^(\d+)_(\d+|\[[^\]]+\])$/.exec(jobField.trim());
  if (!m || m[1] !== jobId) return [];
  if (!m[2].startsWith('[')) return [Number(m[2])];
  const out: number[] = [];
  for (const part of m[2].slice(1, -1).split('%')[0].split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (!Number.isInteger(a)) continue;
    for (let i = a; i <= (Number.isInteger(b) ? b : a); i++) out.push(i);
  }
  return out;
}

/** `squeue --array --noheader --format=%i|%T|%r` -> task -> state and reason. */
export function parseSqueue(text: string, jobId: string): Map<number, TaskInfo> {
  return byTask(text, jobId, (state, reason) => ({
    state: state.trim(),
    reason: reason && reason.trim() !== 'None' ? reason.trim() : null,
    exitCode: null,
  }));
}

/** Each `id|state|third` line of a Slurm listing, as the tasks of `jobId` it names -> what `info` makes of it. */
function byTask(
  text: string,
  jobId: string,
  info: (state: string, third: string | undefined) => TaskInfo,
): Map<number, TaskInfo> {
  const out = new Map<number, TaskInfo>();
  for (const line of text.split('\n')) {
    const [id, state, third] = line.split('|');
    if (!id || !state) continue;
    for (const t of taskIds(id, jobId)) out.set(t, info(state, third));
  }
  return out;
}

/**
 * `sacct --parsable2 --noheader --format=JobID,State,ExitCode` -> task -> state and exit code. Steps
 * (123_4.batch) are skipped; "CANCELLED by 0" is CANCELLED.
 */
export function parseSacct(text: string, jobId: string): Map<number, TaskInfo> {
  return byTask(text, jobId, (state, exitCode) => ({
    state: state.trim().split(/\s+/)[0],
    reason: null,
    exitCode: exitCode?.trim() || null,
  }));
}

/** The job's tasks in the queue, including those that finished within the last MinJobAge seconds. */
export async function squeueTasks(jobId: string): Promise<Map<number, TaskInfo>> {
  const r = await execa('squeue', ['--noheader', '--array', '--states=all', `--jobs=${jobId}`, '--format=%i|%T|%r'], {
    reject: false,
    timeout: 60_000,
  });
  // An unknown job id (purged after MinJobAge) is an error exit: the queue holds none of its tasks.
  if (r.exitCode !== 0 && !/Invalid job id/i.test(r.stderr))
    throw new Error(`squeue failed (${r.exitCode}): ${r.stderr.trim() || r.stdout.trim()}`);
  return parseSqueue(r.exitCode === 0 ? r.stdout : '', jobId);
}

/** The job's tasks in accounting; null when the cluster keeps no accounting (sacct fails). */
export async function sacctTasks(jobId: string): Promise<Map<number, TaskInfo> | null> {
  const r = await execa('sacct', ['--noheader', '--parsable2', `--jobs=${jobId}`, '--format=JobID,State,ExitCode'], {
    reject: false,
    timeout: 60_000,
  });
  if (r.failed || r.exitCode !== 0) return null;
  return parseSacct(r.stdout, jobId);
}
