// A change measured: a tool's cells for two versions of its code in one interleaved run, judged head
// against base, with change.md and change.json written beside the run (bench-change once, bisect at each step).
import fs from 'node:fs';
import path from 'node:path';
import { judgeChange } from '../change/judge.ts';
import { prepareChange, type ChangeTarget } from '../change/prepare.ts';
import { renderChangeMarkdown, type ChangeReport } from '../change/render.ts';
import type { CompareSettings, Comparison } from '../compare/model.ts';
import type { JudgingOptions } from '../compare/options.ts';
import { renderMarkdown } from '../compare/render-markdown.ts';
import { viewOf } from '../compare/view.ts';
import { executorNamed } from '../executors/registry.ts';
import type { JournalHeader } from '../records/journal.ts';
import { timestamp } from '../run/run-plan.ts';
import { writeAtomic } from '../results/write.ts';
import type { SettingFlags } from '../settings/settings.ts';
import type { SourceRequest } from '../source/prepare.ts';
import type { ValidSpec } from '../validate/valid.ts';
import { headerOf } from './header.ts';
import { measure, type Measurement, type RunOptions } from './measure.ts';

/** Options of `bench-change`: which tool and sides, the run's options (its settings' flags among them), and compare's. */
export interface BenchChangeOptions
  extends Pick<RunOptions, 'out' | 'resume' | 'jobs' | 'start' | 'probe'>,
    SettingFlags,
    JudgingOptions {
  tool?: string;
  base?: string;
  head?: string;
  only?: string;
  format?: string;
  json?: boolean;
}

/** How measureChange runs: the run's options, compare's settings, a resumed run's header, the lock holder's name. */
export interface ChangeRunContext {
  opts: Omit<
    BenchChangeOptions,
    'tool' | 'base' | 'head' | 'only' | 'format' | 'json' | 'threshold' | 'mode' | 'failOnSlower'
  >;
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
export async function measureChange(
  loaded: ValidSpec,
  specFile: string,
  change: ChangeTarget,
  requests: SourceRequest[],
  ctx: ChangeRunContext,
): Promise<MeasuredChange> {
  const { opts, previous } = ctx;
  const { prepared, cells, notice } = await prepareChange(loaded, specFile, change, requests, ctx.name);
  if (notice && ctx.announce) process.stderr.write(`benchgrid: ${ctx.name}: ${notice}\n`);
  // The run's own summary goes to stderr: stdout carries only the comparison, in the format asked for.
  const runOpts: RunOptions = {
    ...opts,
    json: false,
    only: undefined,
    out: opts.out ?? path.join('results', loaded.spec.name, `change-${timestamp()}`),
  };
  const header = previous ?? headerOf(specFile, loaded.spec, runOpts, { cells, sources: prepared.requests, change });
  const measured = await measure(
    { ...loaded, ...prepared },
    header,
    { ...runOpts, fresh: previous === null },
    // A change is measured here, by the local executor: both sides' sources are built on this machine.
    { command: ctx.command, executor: await executorNamed('local') },
  );
  const run = path.relative(process.cwd(), measured.dir) || measured.dir;
  const report = judgeChange(
    measured.results,
    { spec: loaded.spec.name, tool: change.tool, sources: header.tool_sources ?? prepared.requests, run },
    ctx.settings,
  );
  const { hidden, ...shown } = viewOf(report.comparison, {
    onlyChanged: opts.onlyChanged ?? false,
    sort: opts.sort ?? 'file',
  });
  const markdown = renderChangeMarkdown(report, renderMarkdown(shown, hidden));
  fs.writeFileSync(path.join(measured.dir, 'change.md'), markdown);
  writeAtomic(path.join(measured.dir, 'change.json'), JSON.stringify(report, null, 2) + '\n');
  return { ...measured, report, markdown, view: { shown, hidden } };
}
