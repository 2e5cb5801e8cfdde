// A cli-table3 grid that fits a width: long column headings become keys with a legend, the first
// column is shortened, and what still does not fit is split into several grids sharing the first column.
import Table from 'cli-table3';
import { cutMiddle, fitLine, visibleLength, wrap } from './width.ts';
import { type GridSpec, gridLines } from './grid-lines.ts';

/** What to draw: a heading row and body rows; the first column labels the rows. */
export interface TableSpec extends GridSpec {
  /** How many leading columns label a row (repeated in every part of a split grid); default 1. */
  labelColumns?: number;
}

/** Text lines of the grid(s), every one at most `width` columns, followed by the heading legend if any. */
export function fitTable(spec: TableSpec, width: number): string[] {
  const attempt = (s: TableSpec) => render(s).split('\n');
  const fits = (lines: string[]) => lines.every((l) => visibleLength(l) <= width);
  let lines = attempt(spec);
  if (fits(lines)) return lines;
  // Headings wider than their column become keys, the widest first, only as many as needed.
  let keyed = spec;
  let legend: string[] = [];
  for (let n = 1; n <= spec.head.length; n++) {
    const abbreviated = abbreviateHeads(spec, n);
    if (abbreviated.legend.length === legend.length && n > 1) break;
    ({ legend } = abbreviated);
    keyed = { ...spec, head: abbreviated.head };
    lines = attempt(keyed);
    if (fits(lines)) break;
  }
  const legendLines = legend.length > 0 ? wrap(`Columns: ${legend.join(', ')}.`, width) : [];
  if (fits(lines)) return [...lines, ...legendLines];
  // The row labels give up what is still missing, down to a third of the width; then the columns split.
  const first = Math.max(0, widestOf([keyed.head, ...keyed.rows].map((r) => visibleLength(r[0] ?? ''))));
  const over = widestOf(lines.map(visibleLength)) - width;
  const narrow = shortenFirstColumn(
    keyed,
    Math.max(first - over, Math.min(first, Math.max(16, Math.floor(width / 3)))),
  );
  lines = attempt(narrow);
  if (!fits(lines))
    lines = split(narrow, width).flatMap((part, i) => (i === 0 ? attempt(part) : ['', ...attempt(part)]));
  return [...lines.map((l) => fitLine(l, width)), ...legendLines];
}

/**
 * Most cells drawn by cli-table3. Its layout is quadratic in the cells (5,000 took 17 s; 200,000 overflowed
 * its stack); a grid of more is drawn by gridLines, which draws the same lines in one pass. Small grids keep
 * cli-table3 so that what every report and comparison printed so far stays byte for byte the same.
 */
export const CLI_TABLE_CELLS = 1000;

/** The largest of `values` (-Infinity for none), looped: Math.max(...v) overflows the stack on a grid of 200,000 rows. */
function widestOf(values: readonly number[]): number {
  let most = -Infinity;
  for (const v of values) if (v > most) most = v;
  return most;
}

function render(s: TableSpec): string {
  return s.rows.length * s.head.length > CLI_TABLE_CELLS ? gridLines(s) : cliTable3(s);
}

/** The grid as cli-table3 draws it, with the styles benchgrid gives it: what gridLines must draw alike. */
export function cliTable3(s: GridSpec): string {
  const table = new Table({
    head: s.head,
    ...(s.colAligns ? { colAligns: s.colAligns } : {}),
    style: { head: s.color ? ['cyan'] : [], border: s.color ? ['grey'] : [], compact: s.compact ?? false },
  });
  for (const row of s.rows) table.push(row);
  return table.toString();
}

/**
 * The `n` headings that overflow their column's cells the most become `c1`, `c2`, ... in column order;
 * the legend says what each stands for (`c1=tl_trace_sparse`, one unbreakable word each).
 */
function abbreviateHeads(s: TableSpec, n: number): { head: string[]; legend: string[] } {
  const excess = s.head.map((h, i) => {
    const widest = Math.max(3, widestOf(s.rows.map((r) => visibleLength(r[i] ?? ''))));
    // A heading a little wider than its cells is kept: a key saves too little to be worth a legend.
    return { i, excess: i === 0 || visibleLength(h) - widest < 3 ? 0 : visibleLength(h) - widest };
  });
  const chosen = new Set(
    excess
      .filter((e) => e.excess > 0)
      .sort((a, b) => b.excess - a.excess)
      .slice(0, n)
      .map((e) => e.i),
  );
  const legend: string[] = [];
  const head = s.head.map((h, i) => {
    if (!chosen.has(i)) return h;
    const key = `c${legend.length + 1}`;
    legend.push(`${key}=${h}`);
    return key;
  });
  return { head, legend };
}

/** Row labels cut in the middle to `max` columns (both ends of an id say the most). */
function shortenFirstColumn(s: TableSpec, max: number): TableSpec {
  // In terminal columns, so that a label of wide characters (CJK, emoji) is cut to the width it takes.
  const cut = (t: string) => cutMiddle(t, max);
  return {
    ...s,
    head: [cut(s.head[0]), ...s.head.slice(1)],
    rows: s.rows.map((r) => [cut(r[0] ?? ''), ...r.slice(1)]),
  };
}

/** Splits the columns after the label columns into consecutive groups, each drawn with the label columns, that fit. */
function split(s: TableSpec, width: number): TableSpec[] {
  const labels = [...Array(Math.min(s.labelColumns ?? 1, s.head.length - 1)).keys()];
  const pick = (cols: number[]): TableSpec => ({
    ...s,
    head: [...labels, ...cols].map((i) => s.head[i]),
    rows: s.rows.map((r) => [...labels, ...cols].map((i) => r[i] ?? '')),
    colAligns: s.colAligns ? [...labels, ...cols].map((i) => s.colAligns![i]) : undefined,
  });
  const parts: TableSpec[] = [];
  let cols: number[] = [];
  for (let i = labels.length; i < s.head.length; i++) {
    const next = [...cols, i];
    const widest = widestOf(render(pick(next)).split('\n').map(visibleLength));
    if (widest > width && cols.length > 0) {
      parts.push(pick(cols));
      cols = [i];
    } else cols = next;
  }
  if (cols.length > 0) parts.push(pick(cols));
  return parts;
}
