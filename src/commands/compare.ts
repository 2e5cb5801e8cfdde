// `benchgrid compare <before> <after>` (or `--last SPEC`): speed labels, status and exactness changes,
// environment guard.
import fs from 'node:fs';
import { compareResults, DEFAULT_SETTINGS } from '../compare/compute.ts';
import { envLine } from '../compare/format.ts';
import { digestNote, lastRuns, skippedLine, tooFewMessage, type RunEntry } from '../compare/last.ts';
import { findRunEntries, specRunsFolder } from '../compare/last-find.ts';
import type { Comparison } from '../compare/model.ts';
import { compareSettings, type JudgingOptions } from '../compare/options.ts';
import { renderMarkdown } from '../compare/render-markdown.ts';
import { renderTable } from '../compare/render-table.ts';
import { EXIT, ExitCode, UserError } from '../errors.ts';
import { loadResults } from '../results/load.ts';
import type { Results } from '../results/model.ts';
import { writeAtomic } from '../results/write.ts';
import { useColor } from '../util/tty.ts';
import { viewOf, type ViewOptions } from '../compare/view.ts';
import { terminalWidth } from '../util/width.ts';
import { loadDeclaredSpec } from '../spec/load.ts';

/** Exit code when `--fail-on-slower` finds a cell significantly slower by more than its percentage. */
export const EXIT_SLOWER = EXIT.differenceFound;

/** Options of `compare`, as commander passes them. */
export interface CompareOptions extends JudgingOptions {
  format?: string;
  strictEnv?: boolean;
  out?: string;
  /** `--last SPEC`: the spec's two newest complete runs instead of two files (src/compare/last.ts). */
  last?: string;
}

const FORMATS = ['table', 'markdown', 'json'] as const;

/** One side of a comparison: the name it is shown by and its loaded results. */
interface Side {
  label: string;
  results: Results;
}

/** Compares two results files (or, with --last, a spec's two newest complete runs) and prints (or writes) the comparison. */
export async function compare(
  beforeFile: string | undefined,
  afterFile: string | undefined,
  opts: CompareOptions,
): Promise<void> {
  const format = resolveFormat(opts.format);
  const settings = compareSettings(opts);
  const [before, after] =
    opts.last === undefined ? filePair(beforeFile, afterFile) : await lastPair(opts.last, beforeFile ?? afterFile);
  for (const side of [before, after]) {
    const few = fewProcesses(side.results);
    if (few) process.stderr.write(`benchgrid: warning: ${side.label}: ${few}\n`);
  }
  const comparison = compareResults(
    before.results,
    after.results,
    { before: before.label, after: after.label },
    settings,
  );
  if (opts.strictEnv && comparison.environment.blocking > 0) {
    const lines = comparison.environment.differences.filter((d) => d.blocking).map((d) => `  ${envLine(d)}`);
    throw new UserError(
      `refusing to compare ${before.label} with ${after.label} (--strict-env): the environments differ:\n${lines.join('\n')}\nCompare runs from the same machine and versions, or drop --strict-env to see the comparison with these differences listed.`,
    );
  }
  const text = render(
    comparison,
    format,
    !opts.out && useColor(process.stdout),
    { onlyChanged: opts.onlyChanged ?? false, sort: opts.sort ?? 'file' },
    terminalWidth(process.stdout),
  );
  if (opts.out) {
    writeAtomic(opts.out, text);
    process.stderr.write(`benchgrid: wrote the comparison to ${opts.out}\n`);
  } else {
    process.stdout.write(text);
  }
  const failingTools = comparison.summary.failing_tools ?? [];
  if ((comparison.summary.failing && comparison.summary.failing.length > 0) || failingTools.length > 0)
    throw new ExitCode(EXIT_SLOWER);
}

/** BEFORE and AFTER as given, both required without --last. */
function filePair(beforeFile: string | undefined, afterFile: string | undefined): [Side, Side] {
  if (beforeFile === undefined || afterFile === undefined)
    throw new UserError(
      "compare needs two results files or run directories: benchgrid compare BEFORE AFTER (or --last SPEC for the spec's two newest runs).",
    );
  return [
    { label: beforeFile, results: loadResults(beforeFile) },
    { label: afterFile, results: loadResults(afterFile) },
  ];
}

/** The spec's two newest complete runs under results/<name>/, older first; skipped and passed-over runs are said on stderr. */
async function lastPair(specArg: string, extra: string | undefined): Promise<[Side, Side]> {
  if (extra !== undefined)
    throw new UserError(
      `compare --last ${specArg} takes no results files (got ${JSON.stringify(extra)}): it finds the spec's two newest runs itself. Drop --last to compare two files.`,
    );
  const name = await specName(specArg);
  const folder = specRunsFolder(name);
  const { entries, warnings } = findRunEntries([folder]);
  for (const w of warnings) process.stderr.write(`benchgrid: warning: ${w}\n`);
  const found = lastRuns(entries, name, 2);
  for (const e of found.skipped) process.stderr.write(`benchgrid: ${skippedLine(e)}\n`);
  if (found.runs.length < 2)
    throw new UserError(
      `compare --last ${specArg}: ${tooFewMessage(name, found, fs.existsSync(folder) ? folder : `${folder} (which does not exist)`)}`,
    );
  const [after, before] = found.runs;
  process.stderr.write(
    `benchgrid: comparing the last two runs of ${name}: ${before.dir} (before) with ${after.dir} (after)\n`,
  );
  const note = digestNote(before, after);
  if (note) process.stderr.write(`benchgrid: note: ${note}\n`);
  return [sideOf(before), sideOf(after)];
}

function sideOf(e: RunEntry): Side {
  return { label: e.dir, results: e.results! }; // lastRuns chooses complete runs only, which carry their results
}

/**
 * The spec's name: from the spec file (its `name`, as `run` names results/<name>/), or the argument itself
 * when no such file exists and it is a spec name (`compare --last tiny`).
 */
async function specName(arg: string): Promise<string> {
  if (fs.existsSync(arg)) return (await loadDeclaredSpec(arg)).name;
  if (SPEC_NAME.test(arg) && !/\.ya?ml$/.test(arg)) return arg;
  throw new UserError(
    `compare --last ${arg}: no such spec file. Give the spec file the runs were made from (benchgrid compare --last specs/NAME.yaml), or the spec's name.`,
  );
}

/** A spec's `name` (schemas/spec.schema.json): also a directory name under results/. */
const SPEC_NAME = /^[a-z0-9][a-z0-9_.-]*$/;

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

function render(
  c: Comparison,
  format: (typeof FORMATS)[number],
  color: boolean,
  view: ViewOptions,
  width: number,
): string {
  // JSON keeps every cell in file order: it is the model, for programs.
  if (format === 'json') return JSON.stringify(c, null, 2) + '\n';
  const { hidden, ...shown } = viewOf(c, view);
  if (format === 'markdown') return renderMarkdown(shown, hidden);
  return renderTable(shown, color, width, hidden);
}

function resolveFormat(value: string | undefined): (typeof FORMATS)[number] {
  const v = value ?? 'table';
  if ((FORMATS as readonly string[]).includes(v)) return v as (typeof FORMATS)[number];
  throw new UserError(`--format: expected one of ${FORMATS.join(', ')} (got ${JSON.stringify(v)}).`);
}
