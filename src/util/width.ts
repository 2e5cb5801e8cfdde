// How wide output may be: the terminal's columns (or $COLUMNS), 100 when unknown; and cutting a line to fit.

/** Default width when neither the stream nor $COLUMNS says: 100 columns. */
export const DEFAULT_WIDTH = 100;

/** Columns available on this stream: its own when a TTY, else $COLUMNS, else 100. Never below 40. */
export function terminalWidth(stream: { columns?: number; isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.COLUMNS);
  const w = stream.isTTY && stream.columns ? stream.columns : Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_WIDTH;
  return Math.max(40, w);
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

/** Visible length of a string (ANSI colour codes take no columns). */
export function visibleLength(s: string): number {
  return [...s.replace(ANSI, '')].length;
}

/** The line cut to `width` visible columns, ending in '…' when cut (colour codes are dropped from a cut line). */
export function fitLine(line: string, width: number): string {
  if (visibleLength(line) <= width) return line;
  return [...line.replace(ANSI, '')].slice(0, Math.max(0, width - 1)).join('') + '…';
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
    const room = Math.max(1, width - lead.length);
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
