// `benchgrid report <results.json>`: the results as a terminal grid, a markdown page, an HTML report, JSON,
// or a tidy table (CSV, JSON Lines) of one row per cell.
import { UserError } from '../errors.ts';
import { loadResults } from '../results/load.ts';
import { writeAtomic } from '../results/write.ts';
import { renderHtml } from '../report/html.ts';
import { renderMarkdown } from '../report/markdown.ts';
import { resolvePage } from '../report/page.ts';
import { loadSpecForReport } from '../report/spec.ts';
import { renderTable } from '../report/table.ts';
import { tidyRows } from '../report/tidy.ts';
import { withGrowth } from '../report/growth.ts';
import { toCsv, toJsonl } from '../report/tidy-text.ts';
import { reportInput } from '../report/run-reports.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';

/** The formats `report` writes. */
export const REPORT_FORMATS = ['table', 'markdown', 'html', 'json', 'csv', 'jsonl'] as const;

/** Options of `report`. */
export interface ReportOptions {
  spec?: string;
  format?: string;
  out?: string;
}

/** Renders a results file (benchgrid's or a seed-layout file) to stdout, or to `--out FILE`. */
export async function report(file: string, opts: ReportOptions): Promise<void> {
  const format = opts.format ?? 'table';
  if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
    throw new UserError(`--format must be one of ${REPORT_FORMATS.join(', ')} (got '${format}').`);
  }
  const results = loadResults(file);
  const spec = opts.spec ? await loadSpecForReport(opts.spec) : null;
  const input = reportInput(results, spec);
  if (spec) {
    if (results.spec && results.spec.name !== spec.name) {
      process.stderr.write(
        `benchgrid: warning: ${file} was measured for spec '${results.spec.name}', not '${spec.name}'; labels and page may not fit.\n`,
      );
    }
    const { missing } = resolvePage(input);
    if (missing.length > 0) {
      process.stderr.write(
        `benchgrid: warning: ${missing.length} page entr${missing.length === 1 ? 'y has' : 'ies have'} no cell in ${file}, shown as "not measured": ${missing.join(', ')}\n`,
      );
    }
  }
  let text: string;
  if (format === 'json') text = JSON.stringify(withGrowth(results), null, 2) + '\n';
  else if (format === 'markdown') text = renderMarkdown(input);
  else if (format === 'html') text = renderHtml(input);
  else if (format === 'csv') text = toCsv(tidyRows(input));
  else if (format === 'jsonl') text = toJsonl(tidyRows(input));
  else text = renderTable(input, !opts.out && useColor(process.stdout), terminalWidth(process.stdout));
  if (opts.out) {
    writeAtomic(opts.out, text);
    process.stderr.write(`benchgrid: wrote ${opts.out}\n`);
  } else {
    process.stdout.write(text);
  }
}
