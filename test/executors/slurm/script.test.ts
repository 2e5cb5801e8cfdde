// The Slurm options resolve command line over spec over defaults, and the sbatch script runs one
// shard's driver per array task.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sbatchScript, shellQuote } from '../../../src/executors/slurm/script.ts';
import { resolveSlurm } from '../../../src/executors/slurm/settings.ts';
import { loadSpec } from '../../../src/validate/load.ts';
import type { Spec } from '../../../src/spec/types.ts';
import { FIXTURES } from '../../helpers.ts';

async function tiny(slurm: Partial<Spec['slurm']> = {}): Promise<Spec> {
  const spec = (await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'))).spec!;
  return { ...spec, slurm: { ...spec.slurm, ...slurm } };
}
const context = { cells: 5, device: 'cpu' as const, threads: 1, stamp: '2026-01-01T00-00-00', cwd: '/home/me/bench' };

describe('resolving the Slurm settings', () => {
  it('defaults to one shard, no partition, CPUs per task from the threads, and a shared dir under results/', async () => {
    const { settings, warnings } = resolveSlurm(await tiny(), {}, context);
    expect(settings).toEqual({
      jobName: 'benchgrid-tiny',
      partition: null,
      gpusPerTask: null,
      cpusPerTask: 1,
      timeLimit: null,
      sbatchArgs: [],
      sharedDir: '/home/me/bench/results/tiny/slurm-2026-01-01T00-00-00',
      shards: 1,
      python: 'python3',
      wait: true,
    });
    expect(warnings).toEqual([]);
  });

  it("takes the spec's slurm section, and the command line over it", async () => {
    const spec = await tiny({
      partition: 'gpu',
      gpus_per_task: 2,
      time_limit: '1:00:00',
      shards: 3,
      sbatch_args: ['--qos=short'],
      shared_dir: '/scratch/x',
    });
    expect(resolveSlurm(spec, {}, context).settings).toMatchObject({
      partition: 'gpu',
      gpusPerTask: 2,
      timeLimit: '1:00:00',
      shards: 3,
      sbatchArgs: ['--qos=short'],
      sharedDir: '/scratch/x',
    });
    const over = resolveSlurm(
      spec,
      {
        partition: 'debug',
        gpusPerTask: 0,
        timeLimit: '30',
        shards: 2,
        sbatchArg: ['--hold'],
        sharedDir: 'rel',
        wait: false,
        python: '/opt/py/bin/python',
      },
      context,
    ).settings;
    expect(over).toMatchObject({
      partition: 'debug',
      gpusPerTask: 0,
      timeLimit: '30',
      shards: 2,
      sbatchArgs: ['--qos=short', '--hold'],
      sharedDir: '/home/me/bench/rel',
      wait: false,
      python: '/opt/py/bin/python',
    });
  });

  it('gives a cuda spec one GPU per task by default', async () => {
    expect(resolveSlurm(await tiny(), {}, { ...context, device: 'cuda' }).settings.gpusPerTask).toBe(1);
  });

  it('uses at most one shard per cell, with a warning', async () => {
    const { settings, warnings } = resolveSlurm(await tiny(), { shards: 9 }, context);
    expect(settings.shards).toBe(5);
    expect(warnings[0]).toMatch(/9 shards asked for but only 5 cell\(s\) to run; using 5/);
  });

  it('refuses a time limit Slurm would not read, and an sbatch argument that is not one option', async () => {
    const spec = await tiny();
    expect(() => resolveSlurm(spec, { timeLimit: '2 hours' }, context)).toThrow(
      "--time-limit must be a Slurm time such as 90, 1:30:00 or 2-00:00:00 (got '2 hours').",
    );
    for (const ok of ['90', '1:30', '1:30:00', '2-00', '2-00:00', '2-00:00:00', 'UNLIMITED'])
      expect(() => resolveSlurm(spec, { timeLimit: ok }, context)).not.toThrow();
    expect(() => resolveSlurm(spec, { sbatchArg: ['qos=short'] }, context)).toThrow(
      /one sbatch option per use, such as --sbatch-arg=--qos=short \(got "qos=short"\)/,
    );
  });
});

describe('the sbatch script', () => {
  it('runs one shard per array task through its driver and leaves the exit status beside the log', async () => {
    const { settings } = resolveSlurm(
      await tiny(),
      {
        shards: 3,
        partition: 'gpu',
        gpusPerTask: 1,
        timeLimit: '2:00:00',
        sharedDir: '/shared/run 1',
        python: '/opt/py/bin/python',
      },
      context,
    );
    const script = sbatchScript(settings, { name: 'tiny', digest: 'abcdef0123456789' });
    expect(script.startsWith('#!/bin/bash\n')).toBe(true);
    const directives = script.split('\n').filter((l) => l.startsWith('#SBATCH'));
    expect(directives).toEqual([
      '#SBATCH --job-name=benchgrid-tiny',
      '#SBATCH --array=0-2',
      '#SBATCH --output=/shared/run 1/logs/task-%a.log',
      '#SBATCH --open-mode=append',
      '#SBATCH --ntasks=1',
      '#SBATCH --cpus-per-task=1',
      '#SBATCH --partition=gpu',
      '#SBATCH --gpus-per-task=1',
      '#SBATCH --time=2:00:00',
    ]);
    expect(script).toContain(`shard='/shared/run 1/shard-'"$SLURM_ARRAY_TASK_ID"`);
    expect(script).toContain('/opt/py/bin/python "$shard/driver.py" "$shard"');
    expect(script).toContain(`echo "$rc" > '/shared/run 1/logs/task-'"$SLURM_ARRAY_TASK_ID".exit`);
    expect(script.trimEnd().endsWith('exit "$rc"')).toBe(true);
    expect(script).toContain(`to resubmit by hand: sbatch '/shared/run 1/job.sbatch'`);
  });

  it('shows the extra sbatch arguments in the resubmission hint, not as directives', async () => {
    const { settings } = resolveSlurm(await tiny(), { sbatchArg: ['--qos=short', '--comment=two words'] }, context);
    const script = sbatchScript(settings, { name: 'tiny', digest: 'abc' });
    expect(script).toContain(
      `sbatch --qos=short '--comment=two words' /home/me/bench/results/tiny/slurm-2026-01-01T00-00-00/job.sbatch`,
    );
    expect(script).not.toMatch(/#SBATCH --qos/);
  });

  it('leaves out what is not set', async () => {
    const { settings } = resolveSlurm(await tiny(), {}, context);
    const script = sbatchScript(settings, { name: 'tiny', digest: 'abc' });
    expect(script).not.toMatch(/--partition|--gpus-per-task|--time=/);
    expect(script).toContain('#SBATCH --array=0-0');
  });

  it('quotes words for bash', () => {
    expect(shellQuote('/a/b-c_d.e')).toBe('/a/b-c_d.e');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
  });
});
