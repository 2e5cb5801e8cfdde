// `benchgrid env`: its options; the implementation is src/commands/env.ts.
import { Argument, type Command } from 'commander';
import { addFormat } from '../cli-options.ts';
import type { EnvOptions } from '../commands/env.ts';
import { defineCommand } from './define.ts';

type EnvAction = 'list' | 'build' | 'lock' | 'prune';

export const definition = defineCommand(
  'env',
  'The Python environments of specs: list them with their disk cost, build the missing ones, lock them (SPEC.lock.json), or prune the cache.',
  {
    run: async (action: EnvAction, specs: string[], opts: EnvOptions, command: Command) => {
      // A usage error, told as commander tells its own.
      if (action !== 'prune' && specs.length === 0)
        command.error(`error: env ${action} needs at least one spec file`, { exitCode: 2 });
      return (await import('../commands/env.ts')).env(action, specs, opts);
    },
    declare: (command) =>
      addFormat(
        command
          .addArgument(
            new Argument('<action>', 'list, build, lock or prune').choices(['list', 'build', 'lock', 'prune']),
          )
          .argument('[spec...]', 'spec files (prune: remove cached environments these do not use)'),
        ['table', 'json'],
        'output format (list)',
        'print as JSON (list; same as --format json)',
      )
        .option('--older-than <days>', 'prune: only environments built more than DAYS days ago')
        .option('--yes', 'prune: remove them (default: only print what would be removed)'),
  },
);
