// `benchgrid plan`: its options; the implementation is src/commands/plan.ts.
import { Option } from 'commander';
import { addFormat, addShared } from '../cli-options.ts';
import type { PlanOptions } from '../commands/plan.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand('plan', 'Expand a spec into cells: which run, which are unsupported and why.', {
  run: async (spec: string, opts: PlanOptions) => (await import('../commands/plan.ts')).plan(spec, opts),
  declare: (command) =>
    addFormat(
      addShared(command.argument('<spec>', 'spec file'), ['only', 'timing']),
      ['table', 'json'],
      'output format',
      'print the plan as JSON (same as --format json)',
    )
      .option(
        '--sizes',
        "ask pip what the environments still to build would download: starts the spec's interpreter (never one inside the spec's tree) as env build would, needs the package index; cached, later plans show it without asking",
      )
      .addOption(
        new Option('--no-sizes', 'the default: plan starts no program (kept for scripts that pass it)').hideHelp(),
      ),
});
