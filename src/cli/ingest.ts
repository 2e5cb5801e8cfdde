// `benchgrid ingest`: its options; the implementation is src/commands/ingest.ts.
import { addFormat } from '../cli-options.ts';
import type { IngestCommandOptions } from '../commands/ingest.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'ingest',
  'Validate and merge bundles run by their drivers (or a Slurm submission) into one results.json with reports.',
  {
    run: async (dirs: string[], opts: IngestCommandOptions) =>
      (await import('../commands/ingest.ts')).ingest(dirs, opts),
    declare: (command) =>
      addFormat(
        command
          .argument('<dirs...>', 'bundle directories (the shards of one export), or one Slurm shared directory')
          .option(
            '--out <dir>',
            'results directory (default results/<spec>/<timestamp>; for Slurm, the shared directory)',
          )
          .option('--partial', 'accept processes that never ran; the results are marked partial'),
        ['table', 'json'],
        'summary format',
        'print a JSON summary on stdout (same as --format json)',
      ),
  },
);
