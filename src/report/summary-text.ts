// The summary (src/report/summary.ts) as the terminal prints it at the end of a run: per page row, each
// tool's figures in fixed columns, then the failures, the legend, pairing, precision, noise, growth, the
// answer and where the reports are. Pure.
import { formatPublished } from '../results/published.ts';
import { formatMs, formatPercent } from './format.ts';
import { fitLine, padColumns, wrap, wrapLine } from '../util/width.ts';
import { renderAnswers } from './answer.ts';
import { renderStability } from './stability.ts';
import { forTerminal, mapStrings } from '../util/escape.ts';
import { formatTax } from './pairing-parts.ts';
import { renderPrecision } from './precision.ts';
import { growthLines } from './growth-text.ts';
import type { FailureGroup, Summary, SummaryEntry } from './summary.ts';

/** The failures as text: each cause in full, wrapped, then its cells. */
function renderFailures(groups: FailureGroup[], width: number): string[] {
  if (groups.length === 0) return [];
  const n = groups.reduce((k, g) => k + g.cells.length, 0);
  const lines = [
    '',
    `Failed (${n} cell${n === 1 ? '' : 's'}, ${groups.length} cause${groups.length === 1 ? '' : 's'}):`,
  ];
  for (const g of groups) {
    lines.push(...wrap(g.reason, width - 2).map((l, i) => (i === 0 ? '- ' : '  ') + l));
    const shown = g.cells.slice(0, 6).join(', ') + (g.cells.length > 6 ? `, and ${g.cells.length - 6} more` : '');
    lines.push(
      ...wrap(`${g.cells.length === 1 ? 'cell' : `${g.cells.length} cells`}: ${shown}`, width - 4).map(
        (l) => `    ${l}`,
      ),
    );
    if (g.stopped_early.length)
      lines.push(
        ...wrap(
          `this error repeats in every process: ${g.stopped_early.length === g.cells.length ? 'these cells' : `${g.stopped_early.length} of them`} ran no further processes (no A/A, memory or other timing processes).`,
          width - 4,
        ).map((l) => `    ${l}`),
      );
  }
  return lines;
}

const LEGEND = [
  'median: the median of the per-process medians, per call; spread: (max - min) / median of the per-process medians.',
  "x raw: the cost over the plain forward, timed in alternation with it in the same processes after the tool's import (paired), with a 95% interval that also holds what the next run may differ by; 'unpaired': the ratio of two sets of processes' medians (why: below). x ref: the same against the group's reference tool.",
  "tax: the import tax, what importing and using the tool does to the plain forward in its processes, against the row's control (1.00x: nothing); '*' where its interval excludes 1.00. Its own figure: x raw does not include it.",
  "exact: against the group's reference (bit, close, mismatch; degraded: a reduced-precision cell that agrees at float32, so it differs only by precision; vacuous: the write does not move the output, so agreement proves nothing); 'work: differs': the tool did not do the contract's work.",
];

const COLUMNS = [
  ['median', 10],
  ['spread', 7],
  ['x raw', 18],
  ['tax', 7],
  ['x ref', 7],
  ['exact', 8],
] as const;

/** The summary as text lines no wider than `width` (tool labels are cut to fit, with an ellipsis). */
export function renderSummary(raw: Summary, width: number): string {
  const s = mapStrings(raw, forTerminal);
  const numbers = COLUMNS.reduce((n, [, w]) => n + w + 1, 0);
  const marks = s.rows.some((r) => r.entries.some((e) => e.work_differs)) ? ' work: differs'.length : 0;
  const toolWidth = Math.max(8, Math.min(40, width - 2 - numbers - marks));
  const head = `  ${'tool'.padEnd(toolWidth)} ${COLUMNS.map(([h, w]) => h.padStart(w)).join(' ')}`;
  const lines: string[] = [];
  let section = '';
  for (const row of s.rows) {
    if (row.section !== section) lines.push('', row.section, head);
    section = row.section;
    lines.push(row.label);
    for (const e of row.entries) lines.push(entryLine(e, toolWidth));
  }
  const { cells, ok, error, unsupported } = s.counts;
  lines.push(
    ...renderFailures(s.failures, width),
    '',
    ...LEGEND.flatMap((l) => wrap(l, width)),
    ...pairingLines(s, width),
    ...renderPrecision(s.precision, width),
    ...wrap(
      `${cells} cells: ${ok} ok, ${error} error, ${unsupported} unsupported${s.partial ? ' (partial run)' : ''}.${s.counts.off_page ? ` ${s.counts.off_page} of them are not on the page; the report lists them.` : ''}`,
      width,
    ),
  );
  const noise = renderStability(s.stability);
  if (noise.length) lines.push('', ...noise.flatMap((l) => wrap(l, width)));
  const growth = growthLines(s.growth);
  if (growth.length) lines.push('', ...growth.flatMap((l) => wrapLine(l, width)));
  // The answer comes last, after the noise it is to be read against, as hyperfine ends with its summary.
  const answers = renderAnswers(s.answers, (id) => id);
  if (answers.length) lines.push('', ...answers);
  lines.push(...s.reports.map((r, i) => `${i === 0 ? 'Open the report: ' : '                 '}${r}`));
  return lines.map((l) => fitLine(l, width).trimEnd()).join('\n') + '\n';
}

/** Why the unpaired ratios are unpaired (each reason once), then each tool's import tax. */
function pairingLines(s: Summary, width: number): string[] {
  const why = new Map<string, number>();
  for (const e of s.rows.flatMap((r) => r.entries)) if (e.unpaired) why.set(e.unpaired, (why.get(e.unpaired) ?? 0) + 1);
  const lines = [...why].flatMap(([reason, n]) => wrap(`unpaired (${n} cell${n === 1 ? '' : 's'}): ${reason}.`, width));
  if (s.import_tax.length > 0) {
    const taxes = s.import_tax
      .map((t) => `${t.tool} ${formatTax(t)}${t.low > 1 ? ' slows torch' : t.high < 1 ? ' speeds torch up' : ''}`)
      .join(', ');
    const control = s.import_tax.every((t) => t.controlled === t.cells)
      ? "against each row's control"
      : s.import_tax.some((t) => t.controlled > 0)
        ? "against each row's control where one ran"
        : 'uncontrolled: no control ran';
    // Said as the mean of the rows' taxes, so a reader does not take it for one more row's figure beside the tax column.
    lines.push(
      ...wrap(
        `Import tax per tool, the mean over its rows of the tax column (the plain forward after its import over before it, ${control}, 95% interval): ${taxes}.`,
        width,
      ),
    );
  }
  return lines;
}

function entryLine(e: SummaryEntry, toolWidth: number): string {
  const tool = `  ${padColumns(fitLine(e.tool, toolWidth), toolWidth)} `;
  if (e.status !== 'ok')
    return `${tool}${e.status === 'error' ? 'failed' : e.status === 'missing' ? 'not measured' : 'not run'}${e.reason && e.status !== 'missing' ? `: ${e.reason}` : ''}`;
  const x = (r: number | null) => (r === null ? '' : `${r.toFixed(2)}x`);
  const raw =
    e.ratio_to_raw === null
      ? ''
      : formatPublished({
          ratio: e.ratio_to_raw,
          low: e.ratio_to_raw_ci?.[0] ?? null,
          high: e.ratio_to_raw_ci?.[1] ?? null,
          paired: e.paired === true,
          why: e.unpaired,
        });
  const tax =
    e.import_tax === null
      ? ''
      : `${e.import_tax.toFixed(2)}x${e.import_tax_ci && (e.import_tax_ci[0] > 1 || e.import_tax_ci[1] < 1) ? '*' : ' '}`;
  const cols = [
    e.median_ms === null ? '' : formatMs(e.median_ms),
    e.spread === null ? '' : formatPercent(e.spread),
    raw,
    tax,
    x(e.ratio_to_reference),
    e.exact ?? '',
  ];
  return `${tool}${cols.map((v, i) => v.padStart(COLUMNS[i][1])).join(' ')}${e.work_differs ? ' work: differs' : ''}`;
}
