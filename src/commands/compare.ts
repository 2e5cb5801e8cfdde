// `benchgrid compare <before> <after>`: speed labels, status and exactness changes, environment guard.
import { compareResults, DEFAULT_SETTINGS } from '../compare/compute.ts';
import { envLine } from '../compare/format.ts';
import type { CompareMode, CompareSettings, Comparison } from '../compare/model.ts';
import { renderMarkdown } from '../compare/render-markdown.ts';
import { renderTable } from '../compare/render-table.ts';
import { EXIT, ExitCode, UserError } from '../errors.ts';
import { loadResults } from '../results/load.ts';
import type { Results } from '../results/model.ts';
import { writeAtomic } from '../results/write.ts';
import { useColor } from '../util/tty.ts';
import { viewOf, type SortOrder, type ViewOptions } from '../compare/view.ts';
import { parseThreshold, percent } from '../compare/threshold.ts';
import { terminalWidth } from '../util/width.ts';

/** Exit code when `--fail-on-slower` finds a cell significantly slower by more than its percentage. */
export const EXIT_SLOWER = EXIT.differenceFound;

/** Options of `compare`, as commander passes them. */
export interface CompareOptions {
  format?: string;
  threshold?: string;
  mode?: string;
  strictEnv?: boolean;
  failOnSlower?: string;
  out?: string;
  onlyChanged?: boolean;
  sort?: SortOrder;
}

const FORMATS = ['table', 'markdown', 'json'] as const;

/** Compares two results files and prints (or writes) the comparison. */
export async function compare(beforeFile: string, afterFile: string, opts: CompareOptions): Promise<void> {
  const format = resolveFormat(opts.format);
  const settings = compareSettings(opts);
  const before = loadResults(beforeFile);
  const after = loadResults(afterFile);
  for (const [file, r] of [[beforeFile, before], [afterFile, after]] as const) {
    const few = fewProcesses(r);
    if (few) process.stderr.write(`benchgrid: warning: ${file}: ${few}\n`);
  }
  const comparison = compareResults(before, after, { before: beforeFile, after: afterFile }, settings);
  if (opts.strictEnv && comparison.environment.blocking > 0) {
    const lines = comparison.environment.differences.filter((d) => d.blocking).map((d) => `  ${envLine(d)}`);
    throw new UserError(`refusing to compare ${beforeFile} with ${afterFile} (--strict-env): the environments differ:\n${lines.join('\n')}\nCompare runs from the same machine and versions, or drop --strict-env to see the comparison with these differences listed.`);
  }
  const text = render(comparison, format, !opts.out && useColor(process.stdout), { onlyChanged: opts.onlyChanged ?? false, sort: opts.sort ?? 'file' });
  if (opts.out) {
    writeAtomic(opts.out, text);
    process.stderr.write(`benchgrid: wrote the comparison to ${opts.out}\n`);
  } else {
    process.stdout.write(text);
  }
  const failingTools = comparison.summary.failing_tools ?? [];
  if ((comparison.summary.failing && comparison.summary.failing.length > 0) || failingTools.length > 0) throw new ExitCode(EXIT_SLOWER);
}

/**
 * What to say about a results file whose measured cells ran fewer processes than a label needs: every
 * such cell comes out `unavailable`, which reads like "nothing changed" unless it is said why.
 */
export function fewProcesses(r: Results, needed = DEFAULT_SETTINGS.min_processes): string | null {
  const measured = r.cells.filter((c) => c.status === 'ok');
  const short = measured.filter((c) => c.processes !== null && c.processes < needed);
  if (short.length === 0) return null;
  const counts = [...new Set(short.map((c) => c.processes))].sort().join(' or ');
  return `${short.length} of its ${measured.length} measured cells ran ${counts} process(es); a speed label needs ${needed} on each side, so they are unavailable, not unchanged. Measure with --processes ${needed} or more.`;
}

/** The settings the options ask for (--mode, --threshold, --fail-on-slower), each checked. */
export function compareSettings(opts: Pick<CompareOptions, 'mode' | 'threshold' | 'failOnSlower'>): Partial<CompareSettings> {
  const threshold = parseThreshold(opts.threshold);
  const failOnSlower = opts.failOnSlower === undefined ? null : percent('--fail-on-slower', opts.failOnSlower);
  return { mode: resolveMode(opts.mode), threshold, fail_on_slower: failOnSlower };
}

function render(c: Comparison, format: (typeof FORMATS)[number], color: boolean, view: ViewOptions): string {
  // JSON keeps every cell in file order: it is the model, for programs.
  if (format === 'json') return JSON.stringify(c, null, 2) + '\n';
  const { hidden, ...shown } = viewOf(c, view);
  if (format === 'markdown') return renderMarkdown(shown, hidden);
  return renderTable(shown, color, terminalWidth(process.stdout), hidden);
}

function resolveFormat(value: string | undefined): (typeof FORMATS)[number] {
  const v = value ?? 'table';
  if ((FORMATS as readonly string[]).includes(v)) return v as (typeof FORMATS)[number];
  throw new UserError(`--format: expected one of ${FORMATS.join(', ')} (got ${JSON.stringify(v)}).`);
}

function resolveMode(value: string | undefined): CompareMode {
  const v = value ?? 'ratio';
  if (v === 'ratio' || v === 'absolute') return v;
  throw new UserError(`--mode: expected ratio or absolute (got ${JSON.stringify(v)}).`);
}
