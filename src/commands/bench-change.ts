// `benchgrid bench-change SPEC --tool T --base SOURCE --head SOURCE`: a tool's cells of a spec for two
// versions of its code in one interleaved run (both sides' processes alternate in one schedule, so what
// the machine does to one it does to the other), then compare's verdict of head against base.
import fs from 'node:fs';
import path from 'node:path';
import { renderChangeMarkdown, renderChangeTable, sideSummaries, type ChangeReport } from '../change/render.ts';
import { changeCells, isToolCell, sideOf, splitSides } from '../change/sides.ts';
import { withBaselineFor } from '../change/baseline.ts';
import { adapterLookup } from '../spec/manifests.ts';
import type { Plan } from '../plan/expand.ts';
import { compareResults } from '../compare/compute.ts';
import type { Comparison } from '../compare/model.ts';
import { renderMarkdown } from '../compare/render-markdown.ts';
import { renderTable } from '../compare/render-table.ts';
import { viewOf } from '../compare/view.ts';
import { EXIT, ExitCode, UserError } from '../errors.ts';
import type { JournalHeader } from '../run/journal.ts';
import { checkResumeSources, loadJournalSpec, resumableHeader, resumeSpecFile } from '../run/resume.ts';
import { timestamp } from '../run/run-plan.ts';
import { writeAtomic } from '../results/write.ts';
import { splitToolId } from '../spec/versions.ts';
import type { SettingFlags } from '../settings/settings.ts';
import { prepareSources, type SourceRequest } from '../source/prepare.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';
import { compareSettings, type CompareOptions } from './compare.ts';
import { loadSpecAndWarn } from './load-spec.ts';
import { exitForRun } from './run-summary.ts';
import { checkSameSpec, headerOf, measure, type RunOptions } from './run.ts';

/** Options of `bench-change`: which tool and sides, the run's options (its settings' flags among them), and compare's. */
export interface BenchChangeOptions extends Pick<RunOptions, 'out' | 'resume' | 'jobs' | 'start' | 'probe'>, SettingFlags, Pick<CompareOptions, 'threshold' | 'mode' | 'failOnSlower' | 'onlyChanged' | 'sort'> {
  tool?: string;
  base?: string;
  head?: string;
  only?: string;
  format?: string;
  json?: boolean;
}

/**
 * Runs both sides, compares them, prints the verdict. The exit: 4 when --fail-on-slower finds a slowdown;
 * else run's (exitForRun): 5 when cells of either side ended in error (the comparison, printed anyway,
 * covers what both sides measured and lists the status changes), 3 when nothing could be measured.
 */
export async function benchChange(specArg: string | undefined, opts: BenchChangeOptions): Promise<void> {
  const previous = opts.resume ? resumedChange(opts.resume) : null;
  // A resumed run's spec: the command line's, else the journal's under run's checks (src/run/resume.ts).
  const named = previous ? resumeSpecFile(previous, opts.resume!, specArg) : specArg ? { file: specArg, trusted: true } : null;
  if (named && !named.trusted) await loadJournalSpec(named.file, opts.resume!);
  const specFile = named?.file;
  if (!specFile) throw new UserError('bench-change needs a spec: benchgrid bench-change specs/<name>.yaml --tool TOOL --base git:REV');
  const change = previous?.change ?? { tool: required(opts.tool, '--tool'), only: opts.only ?? null };
  // Both sides are one interleaved run: no run-to-run component separates them (docs/compare.md).
  const settings = { ...compareSettings(opts), same_run: true };
  const loaded = await loadSpecAndWarn(specFile, true);
  checkSameSpec(previous, loaded.spec, specFile);
  const requests: SourceRequest[] = previous?.tool_sources ?? [
    { tool: change.tool, side: 'base', source: required(opts.base, '--base'), digest: null },
    { tool: change.tool, side: 'head', source: opts.head ?? '.', digest: null },
  ];
  // Both sides are timed against the plain forward in their own processes: a group without raw gets it.
  const baseline = withBaselineFor(loaded.spec, change.tool, adapterLookup(loaded.manifests));
  if (baseline.added.length > 0) process.stderr.write(`benchgrid: bench-change: group${baseline.added.length === 1 ? '' : 's'} ${baseline.added.join(', ')} of ${specFile} ${baseline.added.length === 1 ? 'has' : 'have'} no raw tool; the built-in raw is added for this comparison, so that both sides are timed against the plain forward in their own processes.\n`);
  const prepared = await prepareSources({ ...loaded, spec: baseline.spec }, requests);
  const cells = changeCells(prepared.plan, change.only);
  if (cells.length === 0) throw new UserError(`bench-change: ${change.tool} has no planned cell in ${specFile}${change.only ? ` matching --only ${change.only}` : ''}; nothing to compare.`);
  refuseUnpaired(prepared.plan, cells, change.tool, specFile);
  // The run's own summary goes to stderr: stdout carries only the comparison, in the format asked for.
  const runOpts: RunOptions = { ...opts, json: false, only: undefined, out: opts.out ?? path.join('results', loaded.spec.name, `change-${timestamp()}`) };
  const header = previous ?? headerOf(specFile, loaded.spec, runOpts, { cells, sources: prepared.requests, change });
  const { dir, results, planned } = await measure({ ...loaded, ...prepared }, header, { ...runOpts, fresh: previous === null }, `benchgrid bench-change ${opts.resume ? `--resume ${opts.resume}` : `${specFile} --tool ${change.tool}`}`);
  const { before, after } = splitSides(results);
  const rel = path.relative(process.cwd(), dir) || dir;
  const tools = [...new Set(results.cells.filter((c) => sideOf(c.tool) !== null).map((c) => splitToolId(c.tool).tool))];
  const comparison = underTest(compareResults(before, after, { before: `${rel} (base)`, after: `${rel} (head)` }, settings, isToolCell(results)), tools);
  const report: ChangeReport = {
    format: 'benchgrid-change', version: 1, spec: loaded.spec.name, tool: change.tool, tools,
    sides: sideSummaries(results, header.tool_sources ?? prepared.requests), run: rel, comparison,
  };
  const view = { onlyChanged: opts.onlyChanged ?? false, sort: opts.sort ?? 'file' } as const;
  const { hidden, ...shown } = viewOf(comparison, view);
  const markdown = renderChangeMarkdown(report, renderMarkdown(shown, hidden));
  fs.writeFileSync(path.join(dir, 'change.md'), markdown);
  writeAtomic(path.join(dir, 'change.json'), JSON.stringify(report, null, 2) + '\n');
  const format = opts.json ? 'json' : opts.format ?? 'table';
  if (format === 'json') process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else if (format === 'markdown') process.stdout.write(markdown);
  else process.stdout.write(renderChangeTable(report, renderTable(shown, useColor(process.stdout), terminalWidth(process.stdout), hidden)));
  const failing = (comparison.summary.failing ?? []).length + (comparison.summary.failing_tools ?? []).length;
  if (failing > 0) throw new ExitCode(EXIT.differenceFound);
  exitForRun(results, planned);
}

/**
 * A comparison in which no cell of the tool pairs with raw would judge absolute times of two sets of
 * processes, which a busy machine moves by more than a change: refused with each cell's reason. Cells that
 * cannot pair beside others that do are compared as they can be, and the comparison says so per cell.
 */
function refuseUnpaired(plan: Plan, cells: string[], tool: string, specFile: string): void {
  const selected = new Set(cells);
  const sides = plan.cells.filter((c) => selected.has(c.id) && sideOf(c.tool) !== null);
  if (sides.length === 0 || sides.some((c) => c.pairing?.baseline)) return;
  const reasons = [...new Set(sides.map((c) => c.pairing?.unpaired ?? 'it does not pair'))];
  throw new UserError(`bench-change: none of ${tool}'s cells in ${specFile} can be timed against the plain forward in its own processes (${reasons.join('; ')}), so the comparison would judge absolute times, which load moves by more than a change. Give ${tool} a contract the built-in raw tool implements, or compare two runs with \`benchgrid compare --mode absolute\`.`);
}

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') throw new UserError(`bench-change needs ${option}: e.g. --tool torchlens --base git:main --head .`);
  return value;
}

function resumedChange(dir: string): JournalHeader {
  // The run directory's links and sources are refused as run --resume refuses them (src/run/resume.ts).
  const header = resumableHeader(dir);
  if (!header.change) throw new UserError(`--resume ${dir}: not a bench-change run (one that \`benchgrid run\` started; resume that with run --resume).`);
  checkResumeSources(header, dir);
  return header;
}

/**
 * The version of the tool under test differs between the sides by design: that difference is what is
 * compared, so it is listed as a note, not as a difference that makes the sides incomparable.
 */
function underTest(c: Comparison, tools: string[]): Comparison {
  const differences = c.environment.differences.map((d) => (d.key.startsWith('tool.') && tools.includes(d.key.slice(5)) ? { ...d, blocking: false } : d));
  return { ...c, environment: { differences, blocking: differences.filter((d) => d.blocking).length } };
}
