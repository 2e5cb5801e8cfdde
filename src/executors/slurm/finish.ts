// Ends a Slurm submission: follow its tasks, report those that did not complete (Slurm state and log
// tail), and ingest the shards into one results file (partial when a task failed).
import fs from 'node:fs';
import path from 'node:path';
import { EXIT, ExitCode, UserError } from '../../errors.ts';
import { ingestBundles } from '../bundle/ingest.ts';
import { readManifestFile } from '../bundle/manifest.ts';
import { follow, logTail, type TaskState } from './follow.ts';
import { LAYOUT } from './script.ts';
import { readSubmission } from './submit.ts';

/** Options of finishing a submission. */
export interface FinishOptions {
  out?: string;
  json?: boolean;
  pollS?: number;
}

/** Follows, reports and ingests; throws ExitCode(3) after writing partial results when a task failed. */
export async function finishSlurm(dirArg: string, o: FinishOptions): Promise<void> {
  const dir = path.resolve(dirArg);
  const sub = readSubmission(dir);
  if (!sub)
    throw new UserError(
      `${dir}: no ${LAYOUT.record} there; give the shared directory \`benchgrid run --executor slurm\` printed.`,
    );
  const log = (s: string) => process.stderr.write(`benchgrid: ${s}\n`);
  const states = await followTasks(dir, sub, o, log);

  const failed = states.filter((s) => s.state !== 'COMPLETED');
  for (const s of failed) {
    const exit = s.exitCode ? `, exit ${s.exitCode}` : '';
    const reason = s.reason ? ` (${s.reason})` : '';
    log(
      `task ${s.task} (shard ${s.task + 1}/${sub.shards}) ended ${s.state}${exit}${reason}; the end of ${LAYOUT.log(s.task)}:\n${indent(logTail(dir, s.task))}`,
    );
  }
  const shards = readableShards(dir, sub.shards, log);
  if (shards.length === 0)
    throw new UserError(`none of the ${sub.shards} shards of job ${sub.job_id} can be ingested.`, EXIT.runFailed);
  const out = path.resolve(o.out ?? sub.out ?? dir);
  const { results, file, missing } = ingestBundles(shards, { out, allowMissing: failed.length > 0, executor: 'slurm' });
  const count = (st: string) => results.cells.filter((c) => c.status === st).length;
  const rel = path.relative(process.cwd(), file) || file;
  log(
    `${results.cells.length} cells: ${count('ok')} ok, ${count('error')} error, ${count('unsupported')} unsupported${missing.length ? `; ${missing.length} process(es) missing (partial)` : ''}. Results: ${rel}`,
  );
  fs.writeFileSync(
    path.join(dir, 'tasks.json'),
    JSON.stringify(
      states.map((s) => ({ ...s, log: LAYOUT.log(s.task) })),
      null,
      1,
    ) + '\n',
  );
  if (o.json) {
    process.stdout.write(
      JSON.stringify({
        dir,
        job_id: sub.job_id,
        results: file,
        partial: results.partial,
        tasks: states.map(({ task, state, exitCode, reason }) => ({ task, state, exit_code: exitCode, reason })),
        ok: count('ok'),
        error: count('error'),
        unsupported: count('unsupported'),
      }) + '\n',
    );
  }
  if (failed.length > 0) {
    log(
      `${failed.length} of ${sub.shards} Slurm task(s) did not complete: ${failed.map((s) => `task ${s.task} ${s.state}`).join(', ')}; the results are partial.`,
    );
    throw new ExitCode(EXIT.runFailed);
  }
}

/** Follows the submission's tasks to their end; Ctrl-C stops following (not the job) and exits as interrupted. */
async function followTasks(
  dir: string,
  sub: NonNullable<ReturnType<typeof readSubmission>>,
  o: FinishOptions,
  log: (s: string) => void,
): Promise<TaskState[]> {
  let stopped = false;
  const onSignal = () => {
    stopped = true;
    log(
      `stopped following; the job goes on. Finish later with: benchgrid ingest ${path.relative(process.cwd(), dir) || dir}`,
    );
  };
  process.on('SIGINT', onSignal);
  let states: TaskState[];
  try {
    states = await follow(dir, sub.job_id, sub.shards, {
      pollS: o.pollS ?? Number(process.env.BENCHGRID_SLURM_POLL_S ?? 5),
      log,
      stopped: () => stopped,
    });
  } finally {
    process.off('SIGINT', onSignal);
  }
  if (stopped) throw new ExitCode(EXIT.interrupted);
  return states;
}

/** Every shard whose manifest still reads takes part: a cancelled task's finished processes are real measurements. */
function readableShards(dir: string, count: number, log: (s: string) => void): string[] {
  return Array.from({ length: count }, (_, t) => path.join(dir, LAYOUT.shard(t))).filter((d) => {
    try {
      readManifestFile(d);
      return true;
    } catch {
      log(`${path.relative(dir, d)}: its bundle cannot be read; its cells are left out`);
      return false;
    }
  });
}

function indent(s: string): string {
  return s
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}
