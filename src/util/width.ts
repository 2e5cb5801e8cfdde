// How wide output may be: the terminal's columns (or $COLUMNS), 100 when unknown; and cutting a line to fit.
import stringWidth from 'string-width';

/** Default width when neither the stream nor $COLUMNS says: 100 columns. */
export const DEFAULT_WIDTH = 100;

/** Columns available on this stream: its own when a TTY, else $COLUMNS, else 100. Never below 40. */
export function terminalWidth(
  stream: { columns?: number; isTTY?: boolean } = process.stdout,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const fromEnv = Number(env.COLUMNS);
  const w =
    stream.isTTY && stream.columns
      ? stream.columns
      : Number.isInteger(fromEnv) && fromEnv > 0
        ? fromEnv
        : DEFAULT_WIDTH;
  return Math.max(40, w);
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

// Printable ASCII, the dashes, '†', '…' and the box-drawing and block characters of our grids take one
// column a character (as string-width counts them too): the common case, counted without string-width's
// emoji scan, which a grid of 200,000 rows would otherwise pay on every cell and every line.
const NARROW = /^[\x20-\x7e\u2013\u2014\u2020\u2026\u2500-\u259f]*$/;

/** Graphemes (what a reader sees as one character), so that a cut never splits an emoji or an accent off its letter. */
const GRAPHEMES = new Intl.Segmenter();

/**
 * Terminal columns a string takes: CJK and emoji take two, combining marks none, ANSI colour codes none
 * (string-width, the count cli-table3 lays its grids out by, so our fitting and its drawing agree).
 */
export function visibleLength(s: string): number {
  const plain = s.replace(ANSI, '');
  return NARROW.test(plain) ? plain.length : stringWidth(plain);
}

/** The longest start of `s` (colour codes dropped) that takes at most `width` columns, never splitting a character. */
export function sliceColumns(s: string, width: number): string {
  const plain = s.replace(ANSI, '');
  if (NARROW.test(plain)) return plain.slice(0, Math.max(0, width));
  let out = '';
  let used = 0;
  // Whole graphemes, so an emoji with its modifiers or a letter with its accent is kept or dropped as one.
  for (const { segment } of GRAPHEMES.segment(plain)) {
    const w = stringWidth(segment);
    if (used + w > width) break;
    out += segment;
    used += w;
  }
  return out;
}

/** `s` cut in the middle to `width` columns with '…' (both ends of a name say the most); unchanged when it fits. */
export function cutMiddle(s: string, width: number): string {
  if (visibleLength(s) <= width) return s;
  const plain = s.replace(ANSI, '');
  const half = Math.ceil((width - 1) / 2);
  if (NARROW.test(plain)) return plain.slice(0, half) + '…' + plain.slice(plain.length - Math.max(0, width - 1 - half));
  const left = sliceColumns(plain, half);
  let room = width - 1 - visibleLength(left);
  let end = '';
  // The end is taken grapheme by grapheme from the back, so a wide character is never split there either.
  for (const g of [...GRAPHEMES.segment(plain)].reverse()) {
    const w = visibleLength(g.segment);
    if (w > room) break;
    end = g.segment + end;
    room -= w;
  }
  return left + '…' + end;
}

/** `s` padded with spaces to `width` terminal columns: padEnd counts UTF-16 units, which misaligns wide characters. */
export function padColumns(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - visibleLength(s)));
}

/** The line cut to `width` visible columns, ending in '…' when cut (colour codes are dropped from a cut line). */
export function fitLine(line: string, width: number): string {
  if (visibleLength(line) <= width) return line;
  return sliceColumns(line, width - 1) + '…';
}

/** Words of `text` wrapped into lines of at most `width` columns, each after `indent` (first line too). */
export function wrap(text: string, width: number, indent = ''): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line.trim() !== '' && visibleLength(line) + 1 + visibleLength(word) > width) {
      lines.push(line);
      line = indent;
    }
    line += (line.trim() === '' ? '' : ' ') + word;
  }
  if (line.trim() !== '') lines.push(line);
  return lines.map((l) => fitLine(l, width));
}

/**
 * A line wrapped to `width` at spaces, keeping its own spacing: continuation lines are indented 4 more
 * than the line's own indent; a word longer than a line is cut. Short lines come back unchanged.
 */
export function wrapLine(line: string, width: number): string[] {
  if (visibleLength(line) <= width) return [line];
  const indent = /^\s*/.exec(line)![0];
  // A deep indent would leave no room: continuation lines then start near the margin.
  const more = indent.length + 4 <= width / 2 ? indent + '    ' : '    ';
  const out: string[] = [];
  let rest = line;
  let lead = '';
  while (rest !== '' && visibleLength(lead + rest) > width) {
    // Where the room ends in the string: wide characters (CJK, emoji) take two columns of it.
    const room = Math.max(
      1,
      rest.includes('\x1b') ? width - lead.length : sliceColumns(rest, width - lead.length).length,
    );
    const cut = rest.lastIndexOf(' ', room);
    // Always move on by at least one character, whatever the indent.
    const at = Math.max(1, cut > rest.length - rest.trimStart().length ? cut : room);
    out.push(fitLine(lead + rest.slice(0, at).trimEnd(), width));
    rest = rest.slice(at).trimStart();
    lead = more;
  }
  if (rest !== '') out.push(lead + rest);
  return out;
}
