// Text from specs, results and bundles is data: on the way to a terminal its control characters are
// shown, not obeyed, so a title or a reason cannot clear the screen or set the window title.
// Renderers escape each value (src/util/escape.ts, which also folds its line breaks); this guard at the
// CLI's boundary is the second line: it shows every control character but benchgrid's own line
// structure, and in a GitHub Actions job it keeps any line but benchgrid's own workflow commands from
// being read as one (`::warning ...` at a line start, `##[...]` anywhere: the runner's ActionCommand.cs).
import { unicodeEscape } from './escape.ts';
import { useColor } from './tty.ts';

// C0 controls but tab and newline, DEL, C1 controls (U+009B is a one-character CSI on some terminals),
// and the invisible and bidirectional format characters (the set src/util/escape.ts escapes).
const CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\ufeff]/g;
// benchgrid's own terminal sequences, kept on a terminal or where colour is on: SGR colours, and the
// progress line's carriage return and erase-line. Clearing the screen, moving the cursor and OSC
// (window title, hyperlinks) are never kept.
const OWN = /\u001b\[[0-9;]*m|\r\u001b\[2K/g;
// A workflow command: a line that starts with `::` after any blanks (the runner trims them, Unicode
// spaces included), or `##[` anywhere in a line.
const WORKFLOW = /(^|\n)([^\S\n]*)::|##\[/g;

/** `text` with every control character written as a visible `\u001b`-style escape; benchgrid's own sequences kept if asked. */
export function visible(text: string, keepOwn = false): string {
  if (!keepOwn) return text.replace(CONTROL, unicodeEscape);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(OWN)) {
    out += text.slice(last, m.index).replace(CONTROL, unicodeEscape) + m[0];
    last = m.index + m[0].length;
  }
  return out + text.slice(last).replace(CONTROL, unicodeEscape);
}

/**
 * `text` with no workflow command left in it: the first ':' of a `::` that starts a line and the '[' of
 * `##[` written as escapes. `atLineStart` says whether `text` starts a line (a write may end mid-line).
 */
export function noWorkflowCommands(text: string, atLineStart = true): string {
  return text.replace(WORKFLOW, (m: string, start: string | undefined, blanks: string | undefined, offset: number) => {
    if (m === '##[') return '##\\u005b';
    if (start === '' && offset === 0 && !atLineStart) return m;
    return `${start}${blanks}\\u003a:`;
  });
}

/** Whether this process runs in a GitHub Actions job (the runner sets GITHUB_ACTIONS=true). */
export function inGitHubActions(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** The writers of the streams before the guard, for benchgrid's own workflow commands. */
let rawStdout: ((s: string) => boolean) | null = null;

/** Writes one of benchgrid's own workflow commands (`::error file=...::...`) past the guard, on stdout. */
export function writeWorkflowCommand(line: string): void {
  (rawStdout ?? ((s: string) => process.stdout.write(s)))(line.replace(/[\r\n]/g, ' ') + '\n');
}

/**
 * Makes every string written to stdout and stderr pass through `visible` (and, in a GitHub Actions
 * job, `noWorkflowCommands`) until the returned function is called; the CLI's one boundary installs it
 * around each command. A JSON document stays the same value: `\u009b` is how JSON writes that
 * character too, and a workflow command cannot start a JSON line.
 */
export function guardTerminal(streams: NodeJS.WriteStream[] = [process.stdout, process.stderr]): () => void {
  const actions = inGitHubActions();
  const restores = streams.map((stream) => {
    const original = stream.write;
    if (stream === process.stdout) rawStdout = (s) => (original as (c: string) => boolean).call(stream, s);
    const keepOwn = useColor(stream) || Boolean(stream.isTTY);
    let atLineStart = true;
    const guarded = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
      let safe = typeof chunk === 'string' ? visible(chunk, keepOwn) : chunk;
      if (actions && typeof safe === 'string') {
        const text = noWorkflowCommands(safe, atLineStart);
        if (text.length > 0) atLineStart = text.endsWith('\n');
        safe = text;
      }
      return (original as (c: unknown, ...r: unknown[]) => boolean).call(this, safe, ...rest);
    };
    stream.write = guarded as typeof stream.write;
    return () => {
      stream.write = original;
      if (stream === process.stdout) rawStdout = null;
    };
  });
  return () => restores.forEach((r) => r());
}
