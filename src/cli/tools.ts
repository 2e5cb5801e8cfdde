// `benchgrid tools`: its options; the implementation is src/commands/tools.ts.
import { addFormat } from '../cli-options.ts';
import type { ToolsOptions } from '../commands/tools.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'tools',
  'Every adapter benchgrid can run (built in, in runners/, and in specs/runners/ of the project in the current directory): its runner, library, the releases installed in the cached environments, and the contracts it implements.',
  {
    run: async (spec: string | undefined, opts: ToolsOptions) =>
      (await import('../commands/tools.ts')).tools(spec, opts),
    declare: (command) =>
      addFormat(
        command.argument(
          '[spec]',
          'a spec: adds its own runners, the releases its environments pin, and which of its tools use each adapter',
        ),
        ['table', 'json'],
        'output format',
        'print the adapters as JSON (same as --format json)',
      ),
  },
);
