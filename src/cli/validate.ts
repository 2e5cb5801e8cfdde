// `benchgrid validate`: its options; the implementation is src/commands/validate.ts.
import { addFormat } from '../cli-options.ts';
import type { ValidateOptions } from '../commands/validate.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'validate',
  'Check specs against the schema and the semantic rules; print file:line:col diagnostics.',
  {
    run: async (specs: string[], opts: ValidateOptions) =>
      (await import('../commands/validate.ts')).validate(specs, opts),
    declare: (command) =>
      addFormat(
        command.argument('<spec...>', 'spec files'),
        ['table', 'json'],
        'output format (table: diagnostics on stderr)',
        'print the diagnostics as JSON (same as --format json)',
      )
        .option(
          '--check-index',
          "ask the package index (with pip) that every release in a tool's `versions` exists; off by default (network)",
        )
        .option(
          '--probe',
          'build each subject once in its environment (built first if missing) and check that every site is in its model, naming the nearest module paths when one is not',
        )
        .option(
          '--python <path>',
          "--probe: build the subjects with this interpreter instead of the spec's environments",
        )
        .option(
          '--allow-downloads',
          'accept hub weights (hf:...) not yet in the local Hugging Face cache: `run --allow-downloads` fetches them',
        ),
  },
);
