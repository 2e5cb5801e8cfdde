// `benchgrid diff OLD NEW` and `benchgrid diff --base REV [SPEC...]`: a spec change as a change of the matrix.
import { EXIT, ExitCode, UserError } from '../errors.ts';
import { compareFiles, compareWithRevision } from '../diff/load.ts';
import { renderMarkdown } from '../diff/render-markdown.ts';
import { renderTerminal } from '../diff/render-terminal.ts';
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';

/** Exit code of `--exit-code` when the matrix changed, as with `git diff --exit-code`. */
export const EXIT_CHANGED = EXIT.differenceFound;

/** Options of `diff`. */
export interface DiffOptions {
  base?: string;
  format?: 'table' | 'terminal' | 'markdown' | 'json';
  exitCode?: boolean;
}

/** Prints the diff; exit 2 when a version is invalid, 4 with --exit-code when anything changed, else 0. */
export async function diff(specs: string[], opts: DiffOptions): Promise<void> {
  if (opts.base === undefined && specs.length !== 2) {
    throw new UserError(
      `diff needs OLD.yaml NEW.yaml, or --base REV [SPEC...] (got ${specs.length} file${specs.length === 1 ? '' : 's'}).`,
    );
  }
  const report =
    opts.base === undefined ? await compareFiles(specs[0], specs[1]) : await compareWithRevision(opts.base, specs);
  for (const inv of report.invalid) {
    for (const d of inv.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
    const n = inv.diagnostics.length;
    process.stderr.write(
      `benchgrid: cannot diff: the ${inv.side} version ${inv.file} is not a valid spec (${n} error${n === 1 ? '' : 's'}).\n`,
    );
  }
  for (const u of report.unrelated_invalid ?? []) {
    process.stderr.write(
      `benchgrid: warning: ${u.file} does not load (${u.why}), and no change since ${report.base} touches it: left out of this diff. \`benchgrid validate ${u.file}\` says what is wrong.\n`,
    );
  }
  const format = opts.format ?? 'terminal';
  if (format === 'json') process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else if (format === 'markdown') process.stdout.write(renderMarkdown(report));
  else process.stdout.write(renderTerminal(report, useColor(process.stdout), terminalWidth(process.stdout)));
  if (report.invalid.length > 0) throw new ExitCode(EXIT.usage);
  if (opts.exitCode && report.diffs.some((d) => d.changed)) throw new ExitCode(EXIT_CHANGED);
}
