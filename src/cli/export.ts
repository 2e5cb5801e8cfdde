// `benchgrid export`: its options; the implementation is src/commands/export.ts.
import { addFormat, addShared } from '../cli-options.ts';
import type { ExportOptions } from '../commands/export.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'export',
  'Write a self-contained bundle (requests, harness, runners, requirements, driver.py) that runs with Python alone.',
  {
    run: async (spec: string, opts: ExportOptions) => (await import('../commands/export.ts')).exportCommand(spec, opts),
    declare: (command) => {
      command.argument('<spec>', 'spec file').requiredOption('--out <dir>', 'bundle directory (must be new or empty)');
      addShared(command, ['only']).option(
        '--shard <i/n>',
        "only shard I of N (cells split round-robin; a cell's processes stay together)",
      );
      addShared(command, ['device', 'timing', 'schedule', 'seed']);
      return addFormat(
        command,
        ['table', 'json'],
        'summary format',
        'print a JSON summary on stdout (same as --format json)',
      );
    },
  },
);
