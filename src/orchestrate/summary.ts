// The end of `run` (and `ingest`): the summary on stderr, or as JSON on stdout with --json.
import path from 'node:path';
import { EXIT, UserError } from '../errors.ts';
import type { Results } from '../results/model.ts';
import { LENT_FAILURE } from '../results/aggregate-paired.ts';
import { buildSummary, renderSummary } from '../report/summary.ts';
import { reportInput } from '../report/run-reports.ts';
import type { Spec } from '../spec/types.ts';
import { terminalWidth } from '../util/width.ts';

/** Prints what a run found, and where its reports are; `json` prints the same summary as one object on stdout. */
export function printRunSummary(results: Results, spec: Spec | null, dir: string, json: boolean | undefined): void {
  const rel = path.relative(process.cwd(), dir) || dir;
  const reports = ['report.html', 'report.md', 'results.json'].map((f) => path.join(rel, f));
  const summary = buildSummary(reportInput(results, spec), reports);
  const { cells, ok, error, unsupported } = summary.counts;
  if (json) {
    process.stdout.write(
      JSON.stringify({
        dir,
        results: path.join(dir, 'results.json'),
        partial: results.partial,
        ok,
        error,
        unsupported,
        summary,
      }) + '\n',
    );
  } else {
    process.stderr.write(renderSummary(summary, terminalWidth(process.stderr)));
  }
  const line = `${cells} cells: ${ok} ok, ${error} error, ${unsupported} unsupported${results.partial ? ' (partial run)' : ''}. Results: ${rel}/results.json`;
  process.stderr.write(`benchgrid: ${line}\n`);
}

/**
 * The exit of a finished run: 0 when every planned cell was measured or declared unsupported, 5
 * (EXIT.cellErrors) when some ended in error, 3 when nothing could be measured at all (every planned
 * cell failed or declined at run time). Throws the matching error; returns for 0.
 */
export function exitForRun(results: Results, plannedCells: Set<string>): void {
  const planned = results.cells.filter((c) => plannedCells.has(c.id));
  const ok = planned.filter((c) => c.status === 'ok').length;
  const failed = planned.filter((c) => c.status === 'error');
  if (planned.length > 0 && ok === 0) {
    const declined = planned.length - failed.length;
    // A baseline cell that failed because its row's processes did only repeats their cause: name theirs.
    const first = failed.find((c) => !c.reason?.startsWith(LENT_FAILURE)) ?? failed[0];
    const cause = (first?.reason ?? planned[0].reason ?? '').split('\n')[0];
    throw new UserError(
      `nothing could be measured: of ${planned.length} planned cell${planned.length === 1 ? '' : 's'}, ${failed.length} failed and ${declined} declined at run time${cause ? `; the first cause: ${cause}` : ''}. The summary above lists every cause.`,
      EXIT.runFailed,
    );
  }
  if (failed.length > 0) {
    throw new UserError(
      `${failed.length} of ${planned.length} planned cells ended in error (listed above); the other cells are measured and kept (exit ${EXIT.cellErrors}).`,
      EXIT.cellErrors,
    );
  }
}
