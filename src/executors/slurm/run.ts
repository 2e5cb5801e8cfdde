// `benchgrid run --executor slurm SPEC`: export one bundle per shard into a shared directory, submit one
// `sbatch --array` job (a task per shard, each running its shard's driver), follow it and ingest.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.ts';
import { planBundle, writeBundle } from '../bundle/export.ts';
import { exportSelection } from '../bundle/select.ts';
import type { ExecutorRunOptions } from '../executor.ts';
import { timestamp } from '../../run/run-plan.ts';
import { finishSlurm } from './finish.ts';
import { LAYOUT, sbatchScript } from './script.ts';
import { resolveSlurm, type SlurmFlags } from './settings.ts';
import { sbatch, writeSubmission } from './submit.ts';

/** The options of `run` the Slurm executor is given: every executor's, and its own flags. */
export type SlurmRunOptions = ExecutorRunOptions & SlurmFlags;

/** Exports, submits and (unless --no-wait) follows and ingests. */
export async function runOnSlurm(specArg: string | undefined, opts: SlurmRunOptions): Promise<void> {
  if (!specArg)
    throw new UserError('run --executor slurm needs a spec: benchgrid run --executor slurm specs/<name>.yaml');
  if (opts.resume)
    throw new UserError(
      '--resume is for local runs; a Slurm submission is finished with `benchgrid ingest SHARED_DIR` (resubmit a failed shard with sbatch --array=N SHARED_DIR/job.sbatch).',
    );
  if (opts.jobs !== undefined && opts.jobs > 1)
    throw new UserError('--jobs is for local runs; on Slurm, --shards N runs N array tasks side by side.');
  if (opts.changedSince)
    throw new UserError('--changed-since is not supported with --executor slurm; give the cells with --only.');
  if (opts.start === 'fork')
    throw new UserError('--start fork is not supported with --executor slurm: the driver starts cold processes.');
  const log = (s: string) => process.stderr.write(`benchgrid: ${s}\n`);
  const input = await exportSelection(specArg, opts);
  if (input.processes === 0)
    throw new UserError(`${specArg}: no planned cell is selected, so there is nothing to submit.`);
  const { settings, warnings } = resolveSlurm(input.spec, opts, {
    cells: input.cells,
    device: input.device,
    threads: input.protocol.threads,
    stamp: timestamp(),
    cwd: process.cwd(),
  });
  for (const w of warnings) log(`warning: ${w}`);
  const dir = settings.sharedDir;
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new UserError(`${dir} is not empty; give a new --shared-dir for each submission.`);

  for (let i = 0; i < settings.shards; i++) {
    writeBundle(
      path.join(dir, LAYOUT.shard(i)),
      planBundle({ ...input, shard: { index: i, count: settings.shards } }),
      input.spec,
    );
  }
  fs.mkdirSync(path.join(dir, LAYOUT.logs), { recursive: true });
  fs.writeFileSync(path.join(dir, LAYOUT.script), sbatchScript(settings, input.spec), { mode: 0o755 });
  const { jobId, cluster, argv } = await sbatch(dir, settings.sbatchArgs);
  const out = path.resolve(opts.out ?? dir);
  writeSubmission(dir, {
    format: 1,
    job_id: jobId,
    cluster,
    spec: { name: input.spec.name, digest: input.spec.digest },
    shards: settings.shards,
    sbatch: argv,
    submitted: new Date().toISOString(),
    out,
  });
  const rel = path.relative(process.cwd(), dir) || dir;
  log(
    `${input.spec.name}: ${input.cells} cells, ${input.processes} processes in ${settings.shards} shard(s); submitted Slurm job ${jobId} (array 0-${settings.shards - 1}) from ${rel}`,
  );
  if (!settings.wait) {
    log(`not waiting (--no-wait); when the tasks have ended: benchgrid ingest ${rel}`);
    if (opts.json)
      process.stdout.write(JSON.stringify({ dir, job_id: jobId, shards: settings.shards, submitted: true }) + '\n');
    return;
  }
  await finishSlurm(dir, { out, json: opts.json });
}
