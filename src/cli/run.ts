// `benchgrid run`: its options; the implementation is src/commands/run.ts.
import { Option, type Command } from 'commander';
import { addFormat, addShared, boundedInt, repeatable } from '../cli-options.ts';
import type { RunOptions } from '../commands/run.ts';
import { runExecutorNames } from '../executors/registry.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'run',
  'Run every planned cell of a spec in fresh Python processes; write results.json and reports.',
  {
    run: async (spec: string | undefined, opts: RunOptions) => (await import('../commands/run.ts')).run(spec, opts),
    declare: (command) => {
      command
        .argument('[spec]', 'spec file (not needed with --resume)')
        .option('--out <dir>', 'results directory (default results/<spec>/<timestamp>)')
        .option('--resume <dir>', 'complete an interrupted run: only what is missing runs')
        .option(
          '--allow-downloads',
          'download hub weights (hf:...) the local Hugging Face cache lacks, before the first cell; without it benchgrid never downloads',
        );
      addShared(command, ['only', 'device', 'timing'])
        .option('--python <path>', 'run every environment with this interpreter instead of cached virtual environments')
        .option('--changed-since <rev>', 'only the cells a spec change since git revision REV invalidated')
        .option(
          '--compare-last',
          "once the run has finished: compare's table of it against the spec's previous complete run, on stderr (docs/compare.md)",
        );
      addShared(command, ['probe']).option(
        '--tool-source <tool=source>',
        "install TOOL (a tool id or package) from SOURCE for this run: a directory, git:REV (the current directory's repository) or git:REPO@REV (repeatable; docs/ci.md)",
        repeatable,
      );
      addSlurmOptions(addShared(command, ['jobs', 'start', 'schedule', 'seed']));
      return addFormat(
        command,
        ['table', 'json'],
        'summary format: table on stderr, or json on stdout',
        'print the summary as JSON on stdout (same as --format json)',
      );
    },
  },
);

/** Where the cell processes run, and the Slurm executor's own options. */
function addSlurmOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--executor <name>', 'where cell processes run: here, or as a Slurm array job')
        .choices(runExecutorNames())
        .default('local'),
    )
    .option('--partition <name>', "slurm: partition (default: the spec's slurm.partition, else the cluster's default)")
    .option(
      '--gpus-per-task <n>',
      'slurm: GPUs per array task (default 1 for a cuda spec)',
      boundedInt('--gpus-per-task', 0, 64),
    )
    .option(
      '--cpus-per-task <n>',
      "slurm: CPUs per array task (default: the protocol's threads)",
      boundedInt('--cpus-per-task', 1, 1024),
    )
    .option('--time-limit <time>', 'slurm: time limit per task, e.g. 2:00:00')
    .option(
      '--sbatch-arg <arg>',
      'slurm: one extra sbatch argument, e.g. --sbatch-arg=--qos=short (repeatable)',
      repeatable,
    )
    .option(
      '--shared-dir <dir>',
      'slurm: directory seen by the login and compute nodes (default results/<spec>/slurm-<timestamp>)',
    )
    .option(
      '--shards <n>',
      'slurm: array tasks, each running a share of the cells (default 1)',
      boundedInt('--shards', 1, 10_000),
    )
    .option('--no-wait', 'slurm: submit and return; finish later with `benchgrid ingest SHARED_DIR`');
}
