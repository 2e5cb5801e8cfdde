// The command line: the registry of commands (each declared by its module in src/cli/, its implementation
// loaded when it runs) and the one error boundary.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { EXIT, EXIT_HELP, ExitCode, UserError } from './errors.ts';
import { EXAMPLES, examples } from './cli-help.ts';
import { errorObject, jsonRequested, normaliseFormat } from './cli-format.ts';
import { guardTerminal } from './util/terminal.ts';
import { keepFileSizeErrors, writeFailure } from './util/files.ts';
import type { CommandDefinition } from './cli/define.ts';
import { definition as benchChange } from './cli/bench-change.ts';
import { definition as bisect } from './cli/bisect.ts';
import { definition as compare } from './cli/compare.ts';
import { definition as diff } from './cli/diff.ts';
import { definition as env } from './cli/env.ts';
import { definition as exportCommand } from './cli/export.ts';
import { definition as history } from './cli/history.ts';
import { definition as ingest } from './cli/ingest.ts';
import { definition as init } from './cli/init.ts';
import { definition as plan } from './cli/plan.ts';
import { definition as ratios } from './cli/ratios.ts';
import { definition as report } from './cli/report.ts';
import { definition as run } from './cli/run.ts';
import { definition as system } from './cli/system.ts';
import { definition as tools } from './cli/tools.ts';
import { definition as validate } from './cli/validate.ts';

const program = new Command('benchgrid')
  .description('Benchmark PyTorch capture and intervention tools against each other, from a declarative spec.')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) })
  .addHelpText('after', `${examples(EXAMPLES.benchgrid)}\n${EXIT_HELP}\n`)
  // One convention for output formats: --json is --format json.
  .hook('preAction', (_root, command) => normaliseFormat(command));

/** Every command, in the order `benchgrid --help` lists them; each module declares its own options. */
const COMMANDS: CommandDefinition[] = [
  init,
  validate,
  plan,
  report,
  diff,
  run,
  benchChange,
  bisect,
  exportCommand,
  ingest,
  history,
  env,
  compare,
  tools,
  system,
  ratios,
];

for (const c of COMMANDS) {
  // The examples `--help` ends with come from src/cli-help.ts.
  c.declare(program.command(c.name).description(c.description).addHelpText('after', examples(EXAMPLES[c.name]))).action(
    c.run,
  );
}

let droppingClosedPipe = false;

/**
 * A reader that closes stdout early (`benchgrid run --help | head`, quitting a pager) gets no more output,
 * and the command goes on: a run keeps measuring and writing its files. Without this, Node's unhandled EPIPE
 * ended the process with a stack trace.
 */
function dropOutputToClosedPipe(): void {
  // Installed once per process (main runs many times in tests). Not "when stdout has no error listener":
  // under tsx's loader (a checkout whose dist/ is stale) stdout has a pipe's own listener, which removes
  // itself on the first error and re-emits it, unhandled.
  if (droppingClosedPipe) return;
  droppingClosedPipe = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.stdout.write = (() => true) as typeof process.stdout.write;
  });
}

/** Runs the CLI with an argv; resolves to the exit code. Exported for tests. */
export async function main(argv: string[]): Promise<number> {
  keepFileSizeErrors();
  dropOutputToClosedPipe();
  const restore = guardTerminal();
  // With JSON asked for, a failure that printed nothing on stdout still answers there, as a JSON error.
  const json = jsonRequested(argv);
  let wrote = false;
  const write = process.stdout.write.bind(process.stdout);
  if (json) {
    process.stdout.write = ((...args: Parameters<typeof write>) => {
      wrote = true;
      return write(...args);
    }) as typeof process.stdout.write;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    const code = exitCodeOf(error);
    if (json && !wrote && code !== EXIT.ok) write(JSON.stringify(errorObject(error, code)) + '\n');
    return code;
  } finally {
    if (json) process.stdout.write = write;
    restore();
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof ExitCode) return error.exitCode;
  if (error instanceof UserError) {
    for (const line of error.details) process.stderr.write(line + '\n');
    process.stderr.write(`benchgrid: ${error.message}\n`);
    return error.exitCode;
  }
  const refused = writeFailure(error);
  if (refused) return exitCodeOf(refused);
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; usage errors were already printed by commander.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(
    `benchgrid: internal error (a bug in benchgrid, please report it with the command you ran):\n${stack}\n`,
  );
  return EXIT.internal;
}

export { program, Option };

/**
 * Whether this module is the program Node was started with (`node dist/cli.js ...`, through a symbolic
 * link too): then it runs its arguments itself. bin/benchgrid.js imports it and calls main() instead.
 */
function isEntryPoint(): boolean {
  if (!process.argv[1]) return false;
  try {
    return fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.exitCode = await main(process.argv.slice(2));
}
