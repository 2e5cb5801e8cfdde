// `run --compare-last`: a run just measured against the spec's previous complete run, as compare's table.
import path from 'node:path';
import { UserError } from '../errors.ts';
import type { Results } from '../results/model.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';
import { compareResults } from './compute.ts';
import { digestNote, entryOfResults, lastRuns } from './last.ts';
import { findRunEntries, specRunsFolder } from './last-find.ts';
import { renderTable } from './render-table.ts';
import { viewOf } from './view.ts';

/**
 * `run --compare-last`: this run against the newest other complete run of its spec, as compare's table on
 * stderr (stdout carries run's JSON summary). Nothing to compare with is one line; the exit is the run's.
 */
export function compareWithPrevious(dir: string, results: Results, specName: string): void {
  const rel = (p: string) => path.relative(process.cwd(), p) || p;
  const folders = [specRunsFolder(specName), rel(path.dirname(path.resolve(dir)))];
  const { entries, warnings } = findRunEntries(folders);
  for (const w of warnings) process.stderr.write(`benchgrid: warning: ${w}\n`);
  const [previous] = lastRuns(entries, specName, 1, dir).runs;
  if (!previous) {
    process.stderr.write(
      `benchgrid: --compare-last: no earlier complete run of ${specName} in ${[...new Set(folders)].join(' or ')}; nothing to compare this run with.\n`,
    );
    return;
  }
  process.stderr.write(`benchgrid: --compare-last: ${previous.dir} (before) against this run, ${rel(dir)} (after):\n`);
  const note = digestNote(previous, entryOfResults(dir, results));
  if (note) process.stderr.write(`benchgrid: note: ${note}\n`);
  try {
    const comparison = compareResults(previous.results!, results, { before: previous.dir, after: rel(dir) });
    const { hidden, ...shown } = viewOf(comparison, { onlyChanged: false, sort: 'file' });
    process.stderr.write(renderTable(shown, useColor(process.stderr), terminalWidth(process.stderr), hidden));
  } catch (error) {
    // The run is measured and kept whatever the comparison says: its exit stays the run's own.
    if (!(error instanceof UserError)) throw error;
    process.stderr.write(`benchgrid: --compare-last: could not compare: ${error.message}\n`);
  }
}
