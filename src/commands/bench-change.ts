// `benchgrid bench-change SPEC --tool T --base SOURCE --head SOURCE`: a tool's cells of a spec for two
// versions of its code in one interleaved run (both sides' processes alternate in one schedule, so what
// the machine does to one it does to the other), then compare's verdict of head against base.
import { failsOnSlower } from '../change/judge.ts';
import { renderChangeTable } from '../change/render.ts';
import { compareSettings } from '../compare/options.ts';
import { renderTable } from '../compare/render-table.ts';
import { EXIT, ExitCode, UserError } from '../errors.ts';
import type { JournalHeader } from '../records/journal.ts';
import { checkResumeSources, loadJournalSpec, resumableHeader, resumeSpecFile } from '../run/resume.ts';
import type { SourceRequest } from '../source/prepare.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';
import { measureChange, type BenchChangeOptions } from '../orchestrate/change.ts';
import { checkSameSpec } from '../orchestrate/header.ts';
import { exitForRun } from '../orchestrate/summary.ts';
import { loadSpecAndWarn } from './load-spec.ts';

export type { BenchChangeOptions };

/**
 * Runs both sides, compares them, prints the verdict. The exit: 4 when --fail-on-slower finds a slowdown;
 * else run's (exitForRun): 5 when cells of either side ended in error (the comparison, printed anyway,
 * covers what both sides measured and lists the status changes), 3 when nothing could be measured.
 */
export async function benchChange(specArg: string | undefined, opts: BenchChangeOptions): Promise<void> {
  const previous = opts.resume ? resumedChange(opts.resume) : null;
  // A resumed run's spec: the command line's, else the journal's under run's checks (src/run/resume.ts).
  const named = previous
    ? resumeSpecFile(previous, opts.resume!, specArg)
    : specArg
      ? { file: specArg, trusted: true }
      : null;
  if (named && !named.trusted) await loadJournalSpec(named.file, opts.resume!);
  const specFile = named?.file;
  if (!specFile)
    throw new UserError(
      'bench-change needs a spec: benchgrid bench-change specs/<name>.yaml --tool TOOL --base git:REV',
    );
  const change = previous?.change ?? { tool: required(opts.tool, '--tool'), only: opts.only ?? null };
  const settings = compareSettings(opts);
  const loaded = await loadSpecAndWarn(specFile, true);
  checkSameSpec(previous, loaded.spec, specFile);
  const requests: SourceRequest[] = previous?.tool_sources ?? [
    { tool: change.tool, side: 'base', source: required(opts.base, '--base'), digest: null },
    { tool: change.tool, side: 'head', source: opts.head ?? '.', digest: null },
  ];
  const command = `benchgrid bench-change ${opts.resume ? `--resume ${opts.resume}` : `${specFile} --tool ${change.tool}`}`;
  const { report, results, planned, markdown, view } = await measureChange(loaded, specFile, change, requests, {
    opts,
    settings,
    previous,
    command,
    name: 'bench-change',
    announce: true,
  });
  const format = opts.json ? 'json' : (opts.format ?? 'table');
  if (format === 'json') process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else if (format === 'markdown') process.stdout.write(markdown);
  else
    process.stdout.write(
      renderChangeTable(
        report,
        renderTable(view.shown, useColor(process.stdout), terminalWidth(process.stdout), view.hidden),
      ),
    );
  if (failsOnSlower(report)) throw new ExitCode(EXIT.differenceFound);
  exitForRun(results, planned);
}

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '')
    throw new UserError(`bench-change needs ${option}: e.g. --tool torchlens --base git:main --head .`);
  return value;
}

function resumedChange(dir: string): JournalHeader {
  // The run directory's links and sources are refused as run --resume refuses them (src/run/resume.ts).
  const header = resumableHeader(dir);
  if (!header.change)
    throw new UserError(
      `--resume ${dir}: not a bench-change run (one that \`benchgrid run\` started; resume that with run --resume).`,
    );
  checkResumeSources(header, dir);
  return header;
}
