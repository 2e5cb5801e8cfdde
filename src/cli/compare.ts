// `benchgrid compare`: its options; the implementation is src/commands/compare.ts.
import { Option } from 'commander';
import { addFormat } from '../cli-options.ts';
import type { CompareOptions } from '../commands/compare.ts';
import { THRESHOLD_HELP } from '../compare/threshold.ts';
import { EXIT } from '../errors.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'compare',
  'Compare two results files cell by cell: speed labels, status and exactness changes, environment differences.',
  {
    run: async (before: string | undefined, after: string | undefined, opts: CompareOptions) =>
      (await import('../commands/compare.ts')).compare(before, after, opts),
    declare: (command) =>
      addFormat(
        command
          .argument('[before]', 'results file (or run directory) of the baseline run (benchgrid or the seed layout)')
          .argument('[after]', 'results file (or run directory) of the run to judge')
          .option(
            '--last <spec>',
            "instead of two files: the spec's two newest complete runs in results/<name>/ (a spec file, or its name; docs/compare.md)",
          ),
        ['table', 'markdown', 'json'],
        'output format (markdown: ready to paste as a PR comment)',
      )
        .option('--only-changed', 'show only cells whose speed label, status or exactness changed')
        .addOption(
          new Option(
            '--sort <order>',
            'order of the cells: as in the files, by change (largest slowdown first), or by id',
          )
            .choices(['file', 'change', 'id'])
            .default('file'),
        )
        .option('--threshold <pct>', THRESHOLD_HELP)
        .addOption(
          new Option(
            '--mode <mode>',
            "which rule decides a label: ratio (each cell relative to its group's raw cell in the same run; absolute where it cannot) or absolute (own times, threshold widened by the run shift)",
          )
            .choices(['ratio', 'absolute'])
            .default('ratio'),
        )
        .option('--strict-env', 'refuse to compare (exit 2) when the environments differ')
        .option(
          '--fail-on-slower <pct>',
          `exit ${EXIT.differenceFound} when a cell, or a tool over its cells, is significantly slower by more than this percentage`,
        )
        .option('--out <file>', 'write the comparison to a file instead of stdout'),
  },
);
