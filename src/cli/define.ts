// One command of the program, declared by its own module: its name, description, arguments and options,
// and what it runs. cli.ts only lists these modules. A module declares its options with commander (which
// needs them at parse time) and imports its implementation only when it runs, so that `benchgrid --help`
// and `validate` start without the heavy imports of the others.
import type { Command } from 'commander';

/** A command as the registry in cli.ts registers it. */
export interface CommandDefinition {
  readonly name: string;
  readonly description: string;
  /** Declares its arguments and options on the command commander made for it; returns that command. */
  declare(command: Command): Command;
  /** What it does, given commander's action arguments: the positional ones, then the options, then the command. */
  // biome-ignore lint/suspicious/noExplicitAny: commander calls an action with any arguments; each module types its own.
  readonly run: (...args: any[]) => Promise<void>;
}

/** A command definition, its run function typed by its own arguments and options. */
export function defineCommand<Args extends unknown[]>(
  name: string,
  description: string,
  how: {
    run: (...args: Args) => Promise<void>;
    declare(command: Command): Command;
  },
): CommandDefinition {
  return { name, description, ...how };
}
