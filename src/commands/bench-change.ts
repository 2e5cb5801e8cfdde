// `benchgrid bench-change SPEC --tool T --base SOURCE --head SOURCE`: a tool's cells of a spec for two
// versions of its code in one interleaved run (both sides' processes alternate in one schedule, so what
// the machine does to one it does to the other), then compare's verdict of head against base.
import fs from 'node:fs';
import path from 'node:path';
import { failsOnSlower, judgeChange } from '../change/judge.ts';
import { prepareChange, type ChangeTarget } from '../change/prepare.ts';
import { renderChangeMarkdown, renderChangeTable, type ChangeReport } from '../change/render.ts';
import type { CompareSettings, Comparison } from '../compare/model.ts';
import { renderMarkdown } from '../compare/render-markdown.ts';
import { renderTable } from '../compare/render-table.ts';
import { viewOf } from '../compare/view.ts';
import { EXIT, ExitCode, UserError } from '../errors.ts';
import type { JournalHeader } from '../records/journal.ts';
import { checkResumeSources, loadJournalSpec, resumableHeader, resumeSpecFile } from '../run/resume.ts';
import { timestamp } from '../run/run-plan.ts';
import { writeAtomic } from '../results/write.ts';
import type { SettingFlags } from '../settings/settings.ts';
import type { SourceRequest } from '../source/prepare.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';
import { compareSettings, type CompareOptions } from './compare.ts';
import { loadSpecAndWarn, type ValidSpec } from './load-spec.ts';
import { exitForRun } from './run-summary.ts';
import { checkSameSpec, headerOf, measure, type Measurement, type RunOptions } from './run.ts';

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
  const settings = compareSettings(opts);
  const loaded = await loadSpecAndWarn(specFile, true);
  checkSameSpec(previous, loaded.spec, specFile);
  const requests: SourceRequest[] = previous?.tool_sources ?? [
    { tool: change.tool, side: 'base', source: required(opts.base, '--base'), digest: null },
    { tool: change.tool, side: 'head', source: opts.head ?? '.', digest: null },
  ];
  const command = `benchgrid bench-change ${opts.resume ? `--resume ${opts.resume}` : `${specFile} --tool ${change.tool}`}`;
  const { report, results, planned, markdown, view } = await measureChange(loaded, specFile, change, requests, { opts, settings, previous, command, name: 'bench-change', announce: true });
  const format = opts.json ? 'json' : opts.format ?? 'table';
  if (format === 'json') process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else if (format === 'markdown') process.stdout.write(markdown);
  else process.stdout.write(renderChangeTable(report, renderTable(view.shown, useColor(process.stdout), terminalWidth(process.stdout), view.hidden)));
  if (failsOnSlower(report)) throw new ExitCode(EXIT.differenceFound);
  exitForRun(results, planned);
}

/** How measureChange runs: the run's options, compare's settings, a resumed run's header, the lock holder's name. */
export interface ChangeRunContext {
  opts: Omit<BenchChangeOptions, 'tool' | 'base' | 'head' | 'only' | 'format' | 'json' | 'threshold' | 'mode' | 'failOnSlower'>;
  settings: Partial<CompareSettings>;
  previous: JournalHeader | null;
  command: string;
  /** The command's name, which starts its messages. */
  name: 'bench-change' | 'bisect';
  /** Say on stderr that raw was added to groups without it (bisect says it at its first step only). */
  announce: boolean;
}

/** One change measured and judged, with its files written into the run directory. */
export interface MeasuredChange extends Measurement {
  report: ChangeReport;
  markdown: string;
  view: { shown: Comparison; hidden: number };
}

/**
 * Prepares (src/change/prepare.ts), runs both sides in one interleaved run, judges head against base
 * (src/change/judge.ts) and writes change.md and change.json beside the run: bench-change once, bisect
 * at each of its steps. The run's own summary goes to stderr; the caller prints the report and decides the exit.
 */
export async function measureChange(loaded: ValidSpec, specFile: string, change: ChangeTarget, requests: SourceRequest[], ctx: ChangeRunContext): Promise<MeasuredChange> {
  const { opts, previous } = ctx;
  const { prepared, cells, notice } = await prepareChange(loaded, specFile, change, requests, ctx.name);
  if (notice && ctx.announce) process.stderr.write(`benchgrid: ${ctx.name}: ${notice}\n`);
  // The run's own summary goes to stderr: stdout carries only the comparison, in the format asked for.
  const runOpts: RunOptions = { ...opts, json: false, only: undefined, out: opts.out ?? path.join('results', loaded.spec.name, `change-${timestamp()}`) };
  const header = previous ?? headerOf(specFile, loaded.spec, runOpts, { cells, sources: prepared.requests, change });
  const measured = await measure({ ...loaded, ...prepared }, header, { ...runOpts, fresh: previous === null }, ctx.command);
  const run = path.relative(process.cwd(), measured.dir) || measured.dir;
  const report = judgeChange(measured.results, { spec: loaded.spec.name, tool: change.tool, sources: header.tool_sources ?? prepared.requests, run }, ctx.settings);
  const { hidden, ...shown } = viewOf(report.comparison, { onlyChanged: opts.onlyChanged ?? false, sort: opts.sort ?? 'file' });
  const markdown = renderChangeMarkdown(report, renderMarkdown(shown, hidden));
  fs.writeFileSync(path.join(measured.dir, 'change.md'), markdown);
  writeAtomic(path.join(measured.dir, 'change.json'), JSON.stringify(report, null, 2) + '\n');
  return { ...measured, report, markdown, view: { shown, hidden } };
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
