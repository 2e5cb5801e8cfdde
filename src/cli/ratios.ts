// `benchgrid ratios`: its options; the implementation is src/commands/ratios.ts.
import { addFormat, repeatable } from '../cli-options.ts';
import type { RatiosOptions } from '../commands/ratios.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'ratios',
  "Each tool's median over the base tool's (raw) within each run, runs side by side: compares machines that times cannot (docs/gpu.md).",
  {
    run: async (files: string[], opts: RatiosOptions) => (await import('../commands/ratios.ts')).ratios(files, opts),
    declare: (command) =>
      addFormat(
        command
          .argument('<results...>', 'results files (benchgrid or the seed layout), first the baseline')
          .option('--label <label>', 'a column title per results file, in order (repeatable)', repeatable)
          .option('--base <tool>', 'the tool every ratio is taken to', 'raw')
          .option(
            '--tools <names>',
            'comma-separated tools, a trailing * matching a prefix, or all (default: hooks,nnsight,tv_fx,tl_*)',
          )
          .option('--tolerance <pct>', 'mark a change of the ratio beyond this percentage (default: 10)'),
        ['table', 'markdown', 'json'],
        'output format',
      ).option('--out <file>', 'write the table to a file instead of stdout'),
  },
);
