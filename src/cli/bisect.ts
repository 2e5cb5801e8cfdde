// `benchgrid bisect`: its options; the implementation is src/commands/bisect.ts.
import { addFormat } from '../cli-options.ts';
import type { BisectOptions } from '../commands/bisect.ts';
import { addChangeRun } from './change-options.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'bisect',
  'The commit that made a tool slower: binary search over its first-parent line from --good to --bad, each step a bench-change run against good (docs/ci.md, Bisect).',
  {
    run: async (spec: string, opts: BisectOptions) => (await import('../commands/bisect.ts')).bisect(spec, opts),
    declare: (command) => {
      command
        .argument('<spec>', 'spec file')
        .option('--tool <name>', 'the tool id, or the package its tools use')
        .option('--good <rev>', 'a revision known not slower (an ancestor of --bad on its first-parent line)')
        .option('--bad <rev>', 'a revision known slower')
        .option('--repo <dir>', "the tool's git checkout (its package's directory; default: the current directory)")
        .option('--only <globs>', "only the tool's cells whose id (as the spec names them) matches one of these globs")
        .option('--out <dir>', "where the steps' runs and bisect.json go (default results/<spec>/bisect-<timestamp>)");
      addChangeRun(command, 'processes per cell and side at each step (override, recorded in the results)').option(
        '--fail-on-slower <pct>',
        "a step is slower when a cell or the tool is significantly slower by more than this percentage (bench-change's rule; default 0)",
      );
      return addFormat(command, ['table', 'json'], 'output format (the report is also written as bisect.json)');
    },
  },
);
