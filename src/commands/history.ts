// `benchgrid history <results-dir>... --out DIR`: an offline site of cells over runs and releases, with the
// regressions and improvements found in them (docs/versions.md).
import path from 'node:path';
import { UserError } from '../errors.ts';
import { parseThreshold } from '../compare/threshold.ts';
import { buildHistory, type RunInput } from '../history/model.ts';
import { renderHistory } from '../history/render.ts';
import { specRevision } from '../history/revision.ts';
import { findRuns, type RunFound } from '../history/runs.ts';
import { renderHtml } from '../report/html.ts';
import { reportInput } from '../report/run-reports.ts';
import { ensureDirIn, writeAtomic } from '../util/files.ts';

/** Options of `history`. */
export interface HistoryOptions {
  out: string;
  /** compare's --threshold, in percent. */
  threshold?: string;
}

/**
 * The site's folder for a run: its index, then its directory's name in letters, digits, '.', '_' and '-'
 * (anything else one '_'), at most 80 of them. A run directory may be named anything (control characters,
 * bidirectional marks, line breaks, 255 bytes): the site's names stay portable, its links work unencoded,
 * and the index keeps two runs whose names clean up alike apart.
 */
export function siteFolder(runDir: string, index: number): string {
  const name = path
    .basename(runDir)
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[.]+/, '_')
    .slice(0, 80);
  return `${String(index).padStart(3, '0')}-${name}`;
}

/**
 * Draws each run's report into the site from its results and spec. A report.html stored in the run is
 * never copied: the run directory may come from anywhere, and its page could hold any script.
 */
function siteReport(out: string, run: RunFound, index: number): string {
  const rel = path.join('runs', siteFolder(run.dir, index));
  writeAtomic(path.join(ensureDirIn(out, rel), 'report.html'), renderHtml(reportInput(run.results, run.spec)));
  return path.join(rel, 'report.html').split(path.sep).join('/');
}

/** Finds the runs, builds the history and writes the site. */
export async function history(dirs: string[], opts: HistoryOptions): Promise<void> {
  const threshold = parseThreshold(opts.threshold);
  const { runs, warnings } = findRuns(dirs);
  for (const w of warnings) process.stderr.write(`benchgrid: warning: skipped ${w}\n`);
  if (runs.length === 0)
    throw new UserError(
      `no runs (a directory with results.json) under ${dirs.join(', ')}. Run a spec first, or give results/<spec>/.`,
    );
  const out = path.resolve(opts.out);
  const inputs: RunInput[] = [];
  for (const [i, found] of runs.entries()) {
    const spec = found.results.spec;
    const revision = await specRevision(spec?.name ?? '', found.date, spec?.digest ?? null);
    inputs.push({ found, revision, report: siteReport(out, found, i) });
  }
  const h = buildHistory(inputs, threshold);
  const index = path.join(out, 'index.html');
  writeAtomic(index, renderHistory(h));
  if (h.unjudged.cells > 0)
    process.stderr.write(
      `benchgrid: warning: ${h.unjudged.cells} measured cell(s) in ${h.unjudged.runs} run(s) ran fewer than ${h.unjudged.needed} processes: no regression or improvement can be found in them. Measure with --processes ${h.unjudged.needed} or more.\n`,
    );
  const count = (k: string) => h.findings.filter((f) => f.kind === k).length;
  process.stderr.write(
    `benchgrid: wrote ${path.relative(process.cwd(), index) || index}: ${h.runs.length} run(s), ${h.series.length} cell(s), ${count('regression')} regression(s), ${count('improvement')} improvement(s)\n`,
  );
}
