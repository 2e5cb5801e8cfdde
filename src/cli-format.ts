// The output-format convention of every command: `--format table|markdown|json|html`, `--json` as
// its alias, and on failure with JSON asked for, a JSON error object on stdout.
import { CommanderError, type Command } from 'commander';
import { EXIT, ExitCode, UserError } from './errors.ts';

/** Makes `--json` and `--format json` the same option value; `terminal` (diff's old name) reads `table`. */
export function normaliseFormat(command: Command): void {
  const opts = command.opts();
  if (opts.json) command.setOptionValue('format', 'json');
  if (opts.format === 'terminal') command.setOptionValue('format', 'table');
  if (command.opts().format === 'json') command.setOptionValue('json', true);
}

/** Whether an argument list asks for JSON output (`--json`, `--format json`, `--format=json`). */
export function jsonRequested(argv: string[]): boolean {
  return argv.some((a, i) => a === '--json' || a === '--format=json' || (a === '--format' && argv[i + 1] === 'json'));
}

const KINDS: Record<number, string> = {
  [EXIT.internal]: 'internal_error',
  [EXIT.usage]: 'bad_input',
  [EXIT.runFailed]: 'run_could_not_proceed',
  [EXIT.differenceFound]: 'difference_found',
  [EXIT.cellErrors]: 'cells_failed',
  [EXIT.interrupted]: 'interrupted',
};

/** The JSON error object printed on stdout when a command asked for JSON fails without printing any. */
export function errorObject(
  error: unknown,
  exitCode: number,
): { error: { exit_code: number; kind: string; message: string; diagnostics?: unknown[] } } {
  const kind = KINDS[exitCode] ?? 'error';
  let message: string;
  let diagnostics: unknown[] | undefined;
  if (error instanceof ExitCode) {
    message = error.detail?.message ?? `exit ${exitCode}; see stderr`;
    diagnostics = error.detail?.diagnostics;
  } else if (error instanceof UserError) {
    message = error.message;
    // An invalid spec's diagnostics, each a `file:line:col path: message` line.
    if (error.details.length > 0) diagnostics = error.details;
  } else if (error instanceof CommanderError) {
    message = error.message.replace(/^error: /, '');
  } else {
    message = error instanceof Error ? error.message : String(error);
  }
  return { error: { exit_code: exitCode, kind, message, ...(diagnostics ? { diagnostics } : {}) } };
}
