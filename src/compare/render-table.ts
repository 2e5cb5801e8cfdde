// The terminal rendering of a comparison: environment first, then the per-cell table and the lists.
import { fitTable } from '../util/fit-table.ts';
import { DEFAULT_WIDTH, wrapLine } from '../util/width.ts';
import type { CellComparison, Comparison } from './model.ts';
import { MIN_TOOL_CELLS } from './tools.ts';
import * as fmt from './format.ts';
import { roomForIds, shortIds } from './cell-ids.ts';
import { forTerminal, mapStrings } from '../util/escape.ts';

/**
 * Most failing cells --fail-on-slower names on the terminal; the rest are counted (--format json has all).
 * Far above any real run's list, so that lists printed so far are unchanged, and far below the 200,000 ids
 * of one line whose wrapping costs minutes.
 */
const FAILING_LISTED = 1000;

/** How a line is coloured: an ANSI colour code around the text, or the text as it is without colour. */
type Paint = (code: number, s: string) => string;

/** The comparison as `benchgrid compare` prints it on a terminal. */
export function renderTable(raw: Comparison, color: boolean, width = DEFAULT_WIDTH, hidden = 0): string {
  // Every string of the comparison (ids, reasons, versions from the files) through the terminal sink.
  const c = mapStrings(raw, forTerminal);
  const paint: Paint = (code, s) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const lines: string[] = [];
  lines.push(`before: ${fmt.describeRun(c.before)}`, `after:  ${fmt.describeRun(c.after)}`, '');
  for (const l of environmentLines(c, paint)) lines.push(l);
  lines.push('', 'Noise threshold (the larger of --threshold and the A/A noise):');
  for (const n of c.noise) lines.push(`  ${fmt.noiseLine(n)}`);
  lines.push('', `Speed: ${fmt.headline(c)}`);
  if (hidden > 0) lines.push(fmt.onlyChangedLine(c.cells.length, hidden));

  const both = c.cells.filter((x) => x.before && x.after);
  const keys = fmt.reasonKeys(both);
  const { note, grid } = cellGrid(both, keys, paint, color, width);
  if (note) lines.push(note);
  const wrapped = (ls: string[]) => ls.flatMap((l) => wrapLine(l, width));
  const head = wrapped(lines.splice(0));
  // One line at a time: spreading a grid of 200,000 rows into push's arguments overflows the stack.
  for (const l of [...head, ...grid]) lines.push(l);
  const gridEnd = lines.length;
  for (const [why, key] of keys) lines.push(`  (${key}) ${why}`);
  if (c.summary.range_rule > 0) lines.push(fmt.RANGE_NOTE);
  if (grid.length > 0)
    lines.push(
      'interval: 95% hierarchical bootstrap CI of after/before as a change; MW p: Mann-Whitney U on raw samples (reported, not used for the label).',
      fmt.MODE_NOTE,
    );
  const rest = [
    ...toolLines(c, paint, color, width),
    ...changeLines(c, paint),
    ...fmt.onlyInLines(c).flatMap((l) => ['', l]),
    ...failingLines(c, paint),
  ];
  for (const l of rest) lines.push(l);
  return [...lines.slice(0, gridEnd), ...wrapped(lines.slice(gridEnd))].join('\n') + '\n';
}

/** The environment's differences under a title that says whether any makes the runs incomparable. */
function environmentLines(c: Comparison, paint: Paint): string[] {
  const diffs = c.environment.differences;
  if (diffs.length === 0) return ['Environment: no differences recorded.'];
  const title =
    c.environment.blocking > 0
      ? `Environment differs (${c.environment.blocking} blocking): these timings come from different environments.`
      : 'Environment: only notes, nothing that makes the runs incomparable.';
  return [c.environment.blocking > 0 ? paint(33, title) : title, ...fmt.envLines(diffs).map((line) => `  ${line}`)];
}

/** The tools table and its note, and the tools without a verdict; nothing when no tool has one. */
function toolLines(c: Comparison, paint: Paint, color: boolean, width: number): string[] {
  const tools = c.tools ?? [];
  if (!tools.some((t) => t.label !== 'unavailable')) return [];
  const lines = ['', 'Tools, each over its cells:'];
  const t = fmt.toolTable(tools, (l, text) =>
    l === 'slower' ? paint(31, text) : l === 'faster' ? paint(32, text) : text,
  );
  const grid = fitTable({ head: t.head, colAligns: t.aligns, rows: t.rows, color, compact: true }, width);
  for (const l of grid) lines.push(l);
  lines.push(fmt.TOOLS_NOTE);
  const few = tools.filter((t) => t.label === 'unavailable').map((t) => t.tool);
  if (few.length > 0) lines.push(`No tool verdict (fewer than ${MIN_TOOL_CELLS} comparable cells): ${few.join(', ')}.`);
  return lines;
}

/** The cells changed other than in speed: marked ones, status changes, exactness changes. */
function changeLines(c: Comparison, paint: Paint): string[] {
  // A list under its title, after a blank line, a cell a line; a list without cells is left out.
  const list = (title: string, items: string[]) => (items.length > 0 ? ['', title, ...items.map((l) => `  ${l}`)] : []);
  const marked = fmt.annotatedLines(c);
  const changed = fmt.statusChangeLines(c, '->');
  const exact = fmt.exactnessChangeLines(c, '->', paint(31, ' (worse: speed label withheld)'));
  return [
    ...list(`Marked cells (${marked.length}): work differs from the contract, another torch, or a note:`, marked),
    ...list(`Status changes (${changed.length}):`, changed),
    ...list(`Exactness changes (${exact.length}):`, exact),
  ];
}

/** What --fail-on-slower found, cells then tools; nothing without it. */
function failingLines(c: Comparison, paint: Paint): string[] {
  if (!c.summary.failing) return [];
  const f = c.summary.failing;
  const lines = [
    '',
    f.length === 0
      ? `--fail-on-slower ${fmt.pct(c.settings.fail_on_slower!)}: no cell is significantly slower by more than that.`
      : paint(
          31,
          `--fail-on-slower ${fmt.pct(c.settings.fail_on_slower!)}: ${f.length} cell(s) significantly slower by more than that: ${fmt.idList(f, undefined, FAILING_LISTED)}`,
        ),
  ];
  const ft = c.summary.failing_tools ?? [];
  if (ft.length > 0)
    lines.push(
      paint(
        31,
        `--fail-on-slower ${fmt.pct(c.settings.fail_on_slower!)}: ${ft.length} tool(s) slower as a whole by more than that (interval above it): ${ft.join(', ')}`,
      ),
    );
  return lines;
}

/**
 * The grid of the cells measured on both sides, ids shortened to fit (cell-ids.ts) and the line that says
 * how; no grid at all when no cell has both sides, since an empty one says nothing.
 */
function cellGrid(
  both: CellComparison[],
  keys: Map<string, string>,
  paint: Paint,
  color: boolean,
  width: number,
): { note: string | null; grid: string[] } {
  if (both.length === 0) return { note: null, grid: [] };
  const head = ['cell', 'before', 'after', 'change', 'interval', 'rule', 'other', 'MW p', 'label'];
  const rows = both.map((cell) => {
    const s = cell.speed;
    const text = s.label === 'unavailable' ? `unavailable (${keys.get(s.why)})` : fmt.label(s);
    const painted = s.label === 'slower' ? paint(31, text) : s.label === 'faster' ? paint(32, text) : text;
    return [
      cell.id,
      fmt.sideTime(cell.before, s.before_ms),
      fmt.sideTime(cell.after, s.after_ms),
      fmt.change(s.ratio),
      fmt.interval(s),
      fmt.rule(s),
      fmt.other(s),
      fmt.pValue(s.mann_whitney?.p),
      painted,
    ];
  });
  const ids = shortIds(
    rows.map((r) => r[0]),
    roomForIds(head, rows, width),
  );
  rows.forEach((r, i) => (r[0] = ids.ids[i]));
  const grid = fitTable(
    {
      head: [ids.head, ...head.slice(1)],
      colAligns: ['left', 'right', 'right', 'right', 'left', 'left', 'left', 'right', 'left'],
      rows,
      color,
      compact: true,
    },
    width,
  );
  return { note: ids.note, grid };
}
