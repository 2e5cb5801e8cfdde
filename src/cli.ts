// The command line: registers each command (loaded lazily) and is the one error boundary.
import { Command, CommanderError, Option } from 'commander';
import { EXIT, ExitCode, UserError } from './errors.ts';

const program = new Command('benchgrid')
  .description('Benchmark PyTorch capture and intervention tools against each other, from a declarative spec.')
  .version('0.1.0')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

program
  .command('validate')
  .description('Check specs against the schema and the semantic rules; print file:line:col diagnostics.')
  .argument('<spec...>', 'spec files')
  .option('--json', 'print the diagnostics as JSON')
  .action(async (specs: string[], opts) => (await import('./commands/validate.ts')).validate(specs, opts));

program
  .command('plan')
  .description('Expand a spec into cells: which run, which are unsupported and why.')
  .argument('<spec>', 'spec file')
  .option('--only <globs>', "only cells whose id matches one of these comma-separated globs, e.g. 'A/*/hooks/*'")
  .option('--json', 'print the plan as JSON')
  .action(async (spec: string, opts) => (await import('./commands/plan.ts')).plan(spec, opts));

/** Runs the CLI with an argv; resolves to the exit code. Exported for tests. */
export async function main(argv: string[]): Promise<number> {
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    return exitCodeOf(error);
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof ExitCode) return error.exitCode;
  if (error instanceof UserError) {
    process.stderr.write(`benchgrid: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof CommanderError) {
    // --help and --version end here with code 0; usage errors were already printed by commander.
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  const stack = error instanceof Error ? error.stack ?? error.message : String(error);
  process.stderr.write(`benchgrid: internal error (a bug in benchgrid, please report it with the command you ran):\n${stack}\n`);
  return EXIT.internal;
}

export { program, Option };

if (process.argv[1] && /benchgrid(\.js)?$|cli\.ts$/.test(process.argv[1])) {
  process.exitCode = await main(process.argv.slice(2));
}
