// Renderings of a ratio table: markdown (docs/gpu.md keeps one), a terminal table, and the legend both share.
import { fitTable } from '../util/fit-table.ts';
import { DEFAULT_WIDTH, wrapLine } from '../util/width.ts';
import type { RatioRow, RatioTable, RatioValue } from './compute.ts';
import { forMarkdown, forTerminal, mapStrings } from '../util/escape.ts';

/** "1.13 (1.09-1.19)", or the reason there is no ratio. */
export function valueText(v: RatioValue): string {
  if (v.ratio === null)
    return v.status === 'missing' ? 'not in run' : `${v.status}${v.note ? `: ${oneLine(v.note, 60)}` : ''}`;
  const high = v.high !== null && Number.isFinite(v.high) ? v.high.toFixed(2) : '?';
  const range = v.low !== null && v.high !== null ? ` (${v.low.toFixed(2)}-${high})` : '';
  return `${v.ratio.toFixed(2)}${range}${v.paired ? ' p' : ''}`;
}

/** "+4.2 %" or "" when there is nothing to compare. */
export function changeText(row: RatioRow): string {
  if (row.change === null) return '';
  const pct = (row.change * 100).toFixed(1);
  return `${row.change >= 0 ? '+' : ''}${pct} %${row.beyond ? ' !' : ''}`;
}

/** The lines under every rendering: what the numbers are and how they were obtained. */
export function legend(t: RatioTable): string[] {
  return [
    `ratio: the tool's median over ${t.base}'s median, same group, contract and subject, within one run (each median is the median of per-process medians);`,
    `in parentheses: the smallest tool process median over the largest ${t.base} one, and the largest over the smallest.`,
    t.base === 'raw'
      ? "p: paired (docs/protocol.md): the tool timed against raw in its own processes, times its import tax, with the ratio's 95% interval in parentheses."
      : '',
    t.runs.length > 1
      ? `change: last run's ratio over the first run's, minus 1; "!" marks a change beyond ${(t.tolerance * 100).toFixed(0)} %.`
      : '',
  ].filter(Boolean);
}

function runHeader(r: RatioTable['runs'][number]): string {
  return `${r.label}${r.host ? ` (${r.host})` : ''}`;
}

/** The columns of both renderings: the cell's names, a ratio per run, the change over two runs or more. */
function headOf(t: RatioTable): string[] {
  return ['group', 'contract', `tool / ${t.base}`, ...t.runs.map(runHeader), ...(t.runs.length > 1 ? ['change'] : [])];
}

/** A row's values under headOf's columns. */
function cellsOf(t: RatioTable, row: RatioRow): string[] {
  const change = t.runs.length > 1 ? [changeText(row)] : [];
  return [row.group, row.contract, row.tool, ...row.values.map(valueText), ...change];
}

/** GitHub-flavoured markdown. */
export function renderRatioMarkdown(raw: RatioTable): string {
  // Every string of the table (names, labels, hosts, reasons from the files) through the markdown sink, once.
  const t = mapStrings(raw, forMarkdown);
  const head = headOf(t);
  const out = [`| ${head.join(' | ')} |`, `| ${head.map((_, i) => (i < 3 ? '---' : '---:')).join(' | ')} |`];
  for (const row of t.rows) out.push(`| ${cellsOf(t, row).join(' | ')} |`);
  out.push(
    '',
    ...t.runs.map(
      (r) =>
        `- ${r.label}: measured ${r.measured_on}${r.host ? ` on ${r.host}` : ''}${r.device ? `, device ${r.device}` : ''}`,
    ),
  );
  out.push('', ...legend(t));
  if (t.runs.length > 1) out.push('', ...lostLines(t).map((l, i) => (i === 0 ? l : `- ${l}`)));
  return out.join('\n') + '\n';
}

/** A plain table for the terminal, no line wider than `width` (long run headings become keys). */
export function renderRatioTable(raw: RatioTable, width = DEFAULT_WIDTH): string {
  const t = mapStrings(raw, forTerminal);
  const head = headOf(t);
  const rows = t.rows.map((row) => cellsOf(t, row));
  const lost = t.runs.length > 1 ? lostLines(t).map((l, i) => (i === 0 ? l : `  ${l}`)) : [];
  const notes = [
    ...t.runs.map((r) => `${r.label}: measured ${r.measured_on}${r.device ? `, device ${r.device}` : ''}`),
    ...legend(t),
    ...lost,
  ];
  return (
    [
      ...fitTable({ head, rows, color: false, compact: true, labelColumns: 3 }, width),
      ...notes.flatMap((l) => wrapLine(l, width)),
    ].join('\n') + '\n'
  );
}

/** A heading line, then one line per cell ok in the first run and not in the last. */
export function lostLines(t: RatioTable): string[] {
  const first = t.runs[0]?.label ?? 'first';
  const last = t.runs[t.runs.length - 1]?.label ?? 'last';
  if (t.lost.length === 0) return [`Every cell ok in ${first} is ok in ${last}.`];
  return [
    `${t.lost.length} cell(s) ok in ${first} are not ok in ${last}:`,
    ...t.lost.map(
      (c) =>
        `${c.id}: ${c.status === 'missing' ? 'not in the run' : c.status}${c.reason ? `: ${oneLine(c.reason, 200)}` : ''}`,
    ),
  ];
}

function oneLine(s: string, max: number): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
}
