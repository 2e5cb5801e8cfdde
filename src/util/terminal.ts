// Text from specs, results and bundles is data: on the way to a terminal its control characters are
// shown, not obeyed, so a title or a reason cannot clear the screen or set the window title (issue 15).
import { useColor } from './tty.ts';

// C0 controls but tab and newline, DEL, and C1 controls (U+009B is a one-character CSI on some terminals).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// benchgrid's own terminal sequences, kept on a terminal or where colour is on: SGR colours, and the
// progress line's carriage return and erase-line. Clearing the screen, moving the cursor and OSC
// (window title, hyperlinks) are never kept.
const OWN = /\u001b\[[0-9;]*m|\r\u001b\[2K/g;

/** `text` with every control character written as a visible `\u001b`-style escape; benchgrid's own sequences kept if asked. */
export function visible(text: string, keepOwn = false): string {
  if (!keepOwn) return text.replace(CONTROL, escape);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(OWN)) {
    out += text.slice(last, m.index).replace(CONTROL, escape) + m[0];
    last = m.index + m[0].length;
  }
  return out + text.slice(last).replace(CONTROL, escape);
}

function escape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Makes every string written to stdout and stderr pass through `visible` until the returned function
 * is called; the CLI's one boundary installs it around each command. A JSON document stays the same
 * value: `\u009b` is how JSON writes that character too.
 */
export function guardTerminal(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): () => void {
  const restores = streams.map((stream) => {
    const original = stream.write;
    const keepOwn = useColor(stream) || Boolean(stream.isTTY);
    const guarded = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      const safe = typeof chunk === 'string' ? visible(chunk, keepOwn) : chunk;
      return (original as (c: unknown, ...r: unknown[]) => boolean).call(this, safe, ...rest);
    };
    stream.write = guarded as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  return () => restores.forEach((r) => r());
}
