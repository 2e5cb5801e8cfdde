// The Slurm executor: one bundle per shard in a shared directory, one `sbatch --array` job, followed and ingested.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.ts';
import type { Executor } from '../executor.ts';
import { finishSlurm } from './finish.ts';
import { runOnSlurm } from './run.ts';
import { LAYOUT } from './script.ts';
import type { SlurmFlags } from './settings.ts';

export const slurm: Executor<SlurmFlags> = {
  name: 'slurm',
  execute: null,
  submit: async (spec, opts) => {
    if (opts.toolSource?.length)
      throw new UserError(
        '--tool-source builds a tool on this machine; it is not supported with --executor slurm. Run it here, or install the build in the environment the Slurm job uses.',
      );
    if (opts.compareLast)
      throw new UserError(
        '--compare-last is not supported with --executor slurm (the run finishes in `benchgrid ingest`); compare afterwards with `benchgrid compare --last SPEC`.',
      );
    return runOnSlurm(spec, opts);
  },
  recognises: (dirs) => dirs.some((d) => fs.existsSync(path.join(d, LAYOUT.record))),
  ingest: async (dirs, opts) => {
    const submission = dirs.find((d) => fs.existsSync(path.join(d, LAYOUT.record)))!;
    if (dirs.length > 1)
      throw new UserError(
        `${submission} is a Slurm submission; ingest it on its own (its shards are found inside it).`,
      );
    return finishSlurm(submission, { out: opts.out, json: opts.json });
  },
};
