// `benchgrid bench-change`: its options; the implementation is src/commands/bench-change.ts.
import { Option } from 'commander';
import { addFormat } from '../cli-options.ts';
import type { BenchChangeOptions } from '../commands/bench-change.ts';
import { EXIT } from '../errors.ts';
import { addChangeRun } from './change-options.ts';
import { defineCommand } from './define.ts';

export const definition = defineCommand(
  'bench-change',
  "A tool's cells for two versions of its code (base and head) in one interleaved run, then compare's verdict of head against base (docs/ci.md).",
  {
    run: async (spec: string | undefined, opts: BenchChangeOptions) =>
      (await import('../commands/bench-change.ts')).benchChange(spec, opts),
    declare: (command) => {
      command
        .argument('[spec]', 'spec file (not needed with --resume)')
        .option(
          '--tool <name>',
          'the tool id, or the package its tools use (e.g. torchlens: every torchlens tool of the spec)',
        )
        .option(
          '--base <source>',
          "the code before: git:REV (the current directory's repository), git:REPO@REV, a directory, or pinned (the spec's own release)",
        )
        .option('--head <source>', 'the code after, in the same forms', '.')
        .option('--only <globs>', "only the tool's cells whose id (as the spec names them) matches one of these globs")
        .option('--out <dir>', 'run directory (default results/<spec>/change-<timestamp>)')
        .option('--resume <dir>', 'complete an interrupted bench-change run, then compare');
      addChangeRun(command, 'processes per cell and side (override, recorded in the results)')
        .option(
          '--fail-on-slower <pct>',
          `exit ${EXIT.differenceFound} when a cell, or the tool over its cells, is significantly slower by more than this percentage`,
        )
        .option('--only-changed', 'show only cells whose speed label, status or exactness changed')
        .addOption(
          new Option('--sort <order>', 'order of the cells').choices(['file', 'change', 'id']).default('file'),
        );
      return addFormat(
        command,
        ['table', 'markdown', 'json'],
        'output format (markdown: a PR comment, also written to the run directory as change.md)',
      );
    },
  },
);
