// `benchgrid diff`: its options; the implementation is src/commands/diff.ts.
import { addFormat } from '../cli-options.ts';
import type { DiffOptions } from '../commands/diff.ts';
import { EXIT } from '../errors.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'diff',
  'Show what a spec change does to the matrix: cells added, removed, flipped, and to re-measure.',
  {
    run: async (specs: string[], opts: DiffOptions) => (await import('../commands/diff.ts')).diff(specs, opts),
    declare: (command) =>
      addFormat(
        command
          .argument(
            '[specs...]',
            'OLD.yaml NEW.yaml; with --base, the specs to compare (default: every spec changed since REV)',
          )
          .option(
            '--base <rev>',
            'compare each spec with its version at git revision REV (read from git, nothing checked out)',
          ),
        ['table', 'markdown', 'json', 'terminal'],
        "output format ('terminal' is an old name of table)",
      ).option('--exit-code', `exit ${EXIT.differenceFound} when anything changed, like git diff --exit-code`),
  },
);
