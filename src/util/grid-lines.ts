// A box-drawn grid laid out in one pass, drawn exactly as cli-table3 draws our grids (single-line cells,
// auto widths, one space of padding, cyan headings and grey borders when coloured). cli-table3's layout is
// quadratic in the number of cells (5,000 took 17 s, 200,000 overflowed its stack), so fit-table.ts hands
// it only small grids and draws larger ones here; test/util/grid-lines.test.ts holds the two equal. Pure.
import { createRequire } from 'node:module';
import { visibleLength } from './width.ts';

/**
 * Whether cli-table3 paints its borders and headings in this process. It paints through @colors/colors,
 * an optional dependency that decides once, from FORCE_COLOR, --no-color and whether stdout is a terminal,
 * and paints nothing when it is off or missing; a large grid must follow the same decision or it would be
 * coloured where the same small grid is plain (CI's non-terminal stdout). Resolved from cli-table3's own
 * place so it is the very instance cli-table3 uses.
 */
function cliTable3Paints(): boolean {
  try {
    const fromTable = createRequire(createRequire(import.meta.url).resolve('cli-table3'));
    return (fromTable('@colors/colors/safe') as { enabled?: boolean }).enabled !== false;
  } catch {
    return false;
  }
}

/** What to draw: the same fields fit-table.ts gives cli-table3. */
export interface GridSpec {
  head: string[];
  rows: string[][];
  colAligns?: ('left' | 'right' | 'center')[];
  color: boolean;
  compact?: boolean;
}

/** The grid's lines joined by newlines, as cli-table3's `toString()` returns them. */
export function gridLines(s: GridSpec): string {
  // A loop, not Math.max(...rows): spreading 200,000 rows into arguments overflows the stack.
  let columns = s.head.length;
  for (const r of s.rows) columns = Math.max(columns, r.length);
  const widths = new Array<number>(columns).fill(0);
  for (const row of [s.head, ...s.rows])
    for (let i = 0; i < columns; i++) widths[i] = Math.max(widths[i], visibleLength(row[i] ?? ''));
  const coloured = s.color && cliTable3Paints();
  const grey = (t: string) => (coloured ? `\x1b[90m${t}\x1b[39m` : t);
  const cyan = (t: string) => (coloured ? `\x1b[36m${t}\x1b[39m` : t);
  // cli-table3 colours each segment of a rule apart, the closing corner with the last one.
  const rule = (left: string, mid: string, right: string) =>
    widths.map((w, i) => grey(`${i === 0 ? left : mid}${'─'.repeat(w + 2)}${i === columns - 1 ? right : ''}`)).join('');
  const pad = (t: string, i: number) => {
    const room = widths[i] - visibleLength(t);
    const align = s.colAligns?.[i] ?? 'left';
    const before = align === 'right' ? room : align === 'center' ? Math.floor(room / 2) : 0;
    return ` ${' '.repeat(before)}${t}${' '.repeat(room - before)} `;
  };
  const line = (cells: string[], paint: (t: string) => string) =>
    `${cells.map((_, i) => `${grey('│')}${paint(pad(cells[i] ?? '', i))}`).join('')}${grey('│')}`;
  const full = (r: string[]) => Array.from({ length: columns }, (_, i) => r[i] ?? '');
  const out = [rule('┌', '┬', '┐'), line(full(s.head), cyan)];
  const between = rule('├', '┼', '┤');
  for (const r of s.rows) {
    if (!s.compact || out.length === 2) out.push(between);
    out.push(line(full(r), (t) => t));
  }
  out.push(rule('└', '┴', '┘'));
  return out.join('\n');
}
