// `benchgrid history`: its options; the implementation is src/commands/history.ts.
import type { HistoryOptions } from '../commands/history.ts';
import { THRESHOLD_HELP } from '../compare/threshold.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'history',
  'An offline site of every cell over runs and tool releases, with the regressions and improvements found (docs/versions.md).',
  {
    run: async (dirs: string[], opts: HistoryOptions) => (await import('../commands/history.ts')).history(dirs, opts),
    declare: (command) =>
      command
        .argument('<results-dir...>', 'run directories, results/<spec>/ directories, or results/')
        .requiredOption('--out <dir>', "where to write index.html and the runs' reports")
        .option('--threshold <pct>', `compare's ${THRESHOLD_HELP}`),
  },
);
