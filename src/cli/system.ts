// `benchgrid system`: its options; the implementation is src/commands/system.ts.
import { addFormat } from '../cli-options.ts';
import type { SystemOptions } from '../commands/system.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'system',
  'What makes this machine noisy for timing: load, busy processes, CPU frequency governor and boost, cores, memory, steal time.',
  {
    run: async (opts: SystemOptions) => (await import('../commands/system.ts')).system(opts),
    declare: (command) =>
      addFormat(
        command,
        ['table', 'json'],
        'output format',
        'print the facts and checks as JSON (same as --format json)',
      ),
  },
);
