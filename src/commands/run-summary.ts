// The end of `run` (and `ingest`): the summary on stderr, or as JSON on stdout with --json.
import path from 'node:path';
import type { Results } from '../results/model.ts';
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
    process.stdout.write(JSON.stringify({ dir, results: path.join(dir, 'results.json'), partial: results.partial, ok, error, unsupported, summary }) + '\n');
  } else {
    process.stderr.write(renderSummary(summary, terminalWidth(process.stderr)));
  }
  const line = `${cells} cells: ${ok} ok, ${error} error, ${unsupported} unsupported${results.partial ? ' (partial run)' : ''}. Results: ${rel}/results.json`;
  process.stderr.write(`benchgrid: ${line}\n`);
}
