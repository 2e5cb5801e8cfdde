// The terminal report: a cli-table3 grid per group and subject, reasons under each grid. Pure.
import { hanging } from '../plan/render.ts';
import { fitTable } from '../util/fit-table.ts';
import { DEFAULT_WIDTH, wrapLine } from '../util/width.ts';
import { MARK_LEGEND, formatPercent } from './format.ts';
import { buildGrids, type GridCell } from './grid.ts';
import type { ReportInput } from './page.ts';
import { forTerminal, mapStrings } from '../util/escape.ts';
import { taxRows } from './pairing-parts.ts';
import { growthFamilies } from './growth.ts';
import { growthLines } from './growth-text.ts';

/** The results as `benchgrid report --format table` prints them; `color` adds ANSI colours. */
export function renderTable(raw: ReportInput, color: boolean, width = DEFAULT_WIDTH): string {
  // Every string of the results and the spec through the terminal sink: a value is one line of shown text.
  const input = mapStrings(raw, forTerminal);
  const paint = (code: number, close: number) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[${close}m` : s);
  const green = paint(32, 39);
  const red = paint(31, 39);
  const yellow = paint(33, 39);
  const dim = paint(2, 22);
  const bold = paint(1, 22);
  const { results } = input;
  const lines: string[] = [];
  const title = input.spec?.title ?? results.spec?.title ?? results.spec?.name ?? 'benchgrid results';
  lines.push(
    bold(title) +
      (results.measured_on ? ` (measured ${results.measured_on})` : '') +
      (results.partial ? ' [partial: the run did not finish]' : ''),
  );
  lines.push('');
  const cellText = (c: GridCell) => {
    if (c.kind === 'ok')
      return c.result?.exact === 'mismatch'
        ? red(c.text)
        : c.result?.exact === 'close' || c.result?.exact === 'vacuous' || c.result?.exact === 'degraded'
          ? yellow(c.text)
          : green(c.text);
    if (c.kind === 'error') return red(c.text);
    if (c.kind === 'unsupported') return dim(c.text);
    return '';
  };
  for (const grid of buildGrids(input)) {
    const { ok, unsupported, error } = grid.counts;
    const heading = `${grid.group}${grid.groupTitle ? `: ${grid.groupTitle}` : ''} / ${grid.subjectLabel}`;
    lines.push(`${bold(heading)}: ${ok} ok, ${error} failed, ${unsupported} not run`);
    const rows = grid.contracts.map((contract, i) => [contract, ...grid.rows[i].map(cellText)]);
    // One line at a time: spreading a grid of 200,000 rows into push's arguments overflows the stack.
    for (const l of fitTable({ head: ['', ...grid.tools], rows, color }, width)) lines.push(l);
    for (const r of grid.reasons)
      lines.push(...hanging(`  (${r.key}) `, `${r.kind === 'error' ? 'failed: ' : ''}${r.reason}`, width));
    for (const u of grid.unpaired)
      lines.push(
        ...hanging('  ', `unpaired (${u.count} cell${u.count === 1 ? '' : 's'}, no x ratio): ${u.reason}`, width),
      );
    lines.push('');
  }
  const growth = growthLines(growthFamilies(results));
  if (growth.length) lines.push(...growth, '');
  for (const [subject, s] of Object.entries(results.subjects)) {
    const aa = s.meta?.aa_noise;
    if (aa && aa.max_rel_diff !== null) {
      const paired =
        aa.paired?.max_rel_diff != null
          ? ` Their paired ratios to raw differ by up to ${formatPercent(aa.paired.max_rel_diff)}.`
          : '';
      lines.push(
        `A/A noise (${subject}): ${aa.pairs} pairs of fresh processes, medians differ by up to ${formatPercent(aa.max_rel_diff)}; smaller differences are noise.${paired}`,
      );
    }
  }
  const count = (s: string) => results.cells.filter((c) => c.status === s).length;
  lines.push(`Marks: ${MARK_LEGEND}.`);
  if (results.cells.some((c) => c.paired)) {
    lines.push(
      "x1.24: the cell's cost over the plain forward, timed against it in the same processes after the tool's import (paired), with a 95% interval that also holds the run-to-run component (docs/protocol.md).",
    );
    const taxes = taxRows(results).map(
      (r) => `${r.tax.tool} ${r.text[2]}${r.tax.low > 1 ? ' slows torch' : r.tax.high < 1 ? ' speeds torch up' : ''}`,
    );
    if (taxes.length)
      lines.push(
        `Import tax (the plain forward after each tool's import over before it, against the row's control; its own figure, never in x): ${taxes.join(', ')}.`,
      );
  }
  lines.push(
    `${results.cells.length} cells: ${count('ok')} ok, ${count('error')} failed, ${count('unsupported')} not run.`,
  );
  // Grid lines already fit; headings and notes wrap (a grid line must keep its spacing).
  return lines.flatMap((l) => (/[│─]/.test(l) ? [l] : wrapLine(l, width))).join('\n') + '\n';
}
