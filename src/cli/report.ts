// `benchgrid report`: its options; the implementation is src/commands/report.ts.
import { addFormat } from '../cli-options.ts';
import type { ReportOptions } from '../commands/report.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'report',
  "Render a results file (benchgrid's or the seed's): terminal grid, markdown page, self-contained HTML, JSON, or a tidy CSV or JSON Lines table (one row per cell).",
  {
    run: async (results: string, opts: ReportOptions) => (await import('../commands/report.ts')).report(results, opts),
    declare: (command) =>
      addFormat(
        command
          .argument('<results>', 'results.json, or a run directory')
          .option(
            '--spec <spec>',
            "spec whose labels, order and page to use (the page rows come from its 'page' section)",
          ),
        ['table', 'markdown', 'html', 'json', 'csv', 'jsonl'],
        'output format (csv, jsonl: one row per cell, docs/report.md#tidy-exports)',
      ).option('--out <file>', 'write to this file instead of stdout'),
  },
);
