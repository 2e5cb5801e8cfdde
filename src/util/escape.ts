// One escaping function per place text from a file (a spec, a results file, a bundle) is written to:
// a terminal or CI log, a GitHub workflow command, markdown (a PR comment, report.md), HTML. Every
// renderer writes such text through these, so what a file holds is shown, never obeyed: it cannot
// add a line of its own to a log (and so forge `::warning ...`), hide the rest of a PR comment behind
// `<!--`, mention people, pull in a remote image, or run a script (docs/security.md).

/**
 * Characters that are never shown as they are: C0 controls (line breaks and tabs included), DEL, C1
 * controls, the line and paragraph separators, zero-width and byte-order marks, and the bidirectional
 * controls that reorder what a reader sees ("Trojan Source").
 */
export const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u061c\ufeff]/g;

/** `\u001b`-style escape of one character. */
export function unicodeEscape(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Terminal and CI log: one line, every invisible or control character written as a `\u001b`-style escape. */
export function forTerminal(text: string): string {
  return text.replace(INVISIBLE, unicodeEscape);
}

// GitHub workflow commands (docs.github.com/actions/reference/workflow-commands-for-github-actions;
// the runner's ActionCommand.cs): data escapes %, CR and LF; a property also ':' and ','.

/** The message of a workflow command (`::error ...::MESSAGE`): one line for the runner, controls shown. */
export function forAnnotation(text: string): string {
  return forTerminal(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** A property value of a workflow command (`file=`, `title=`). */
export function forAnnotationProperty(text: string): string {
  return forAnnotation(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * Markdown (GitHub-flavoured), text inside a line: a table cell, a list item, a heading, a paragraph.
 * Line breaks fold to spaces; `<`, `>` and `&` become entities (no HTML, no `<!--` comment that hides
 * the rest, no `<img>`); `[ ]` are escaped (no link, no remote image); `\ * ~ |` are escaped (no
 * emphasis or table cell the text did not ask for; `_` is left, as GitHub never reads it inside a
 * word); `@name` gets a zero-width space after the `@` (no mention; Renovate does the same); a block
 * marker that starts the text (`#`, `- `, `+ `, `=`, `1. `) is escaped; controls are shown as escapes.
 * A pair of backticks stays a code span (spec labels write `layer2`), through `forMarkdownCode`: a code
 * span's content is literal, so it can hold none of the above; a lone backtick is escaped.
 */
export function forMarkdown(text: string): string {
  const flat = text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ');
  let out = '';
  let last = 0;
  for (const m of flat.matchAll(/`([^`]+)`/g)) {
    out += markdownText(flat.slice(last, m.index)) + forMarkdownCode(m[1]);
    last = m.index + m[0].length;
  }
  out += markdownText(flat.slice(last));
  return out.replace(/^(\s*)(#|[+-](?=\s|$)|=)/, '$1\\$2').replace(/^(\s*\d{1,9})([.)])(?=\s|$)/, '$1\\$2');
}

/** Markdown text without code spans (see forMarkdown). */
function markdownText(text: string): string {
  return forTerminal(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*~[\]|]/g, (ch) => `\\${ch}`)
    .replace(/@(?=[A-Za-z0-9])/g, '@&#8203;');
}

/**
 * Markdown code span (`` `text` ``): its content is literal (no HTML, link or mention), so only what
 * would end the span or the line is changed: backticks become `'`, line breaks spaces, controls
 * escapes, and `|` is escaped so that a span in a table cell stays in its cell.
 */
export function forMarkdownCode(text: string): string {
  return `\`${forTerminal(text.replace(/`/g, "'").replace(/\r\n|[\r\n\u2028\u2029]/g, ' ')).replace(/\|/g, '\\|')}\``;
}

/** HTML element content and quoted attribute values: markup escaped, controls and bidi shown as escapes (line breaks and tabs kept for `<pre>`). */
export function forHtml(text: string): string {
  return text
    .replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!)
    .replace(INVISIBLE, (ch) => (ch === '\n' || ch === '\t' ? ch : unicodeEscape(ch)));
}

/**
 * A copy of plain data with every string in it, keys included, passed through `f` (a sink's escape):
 * what a renderer for that sink gets, so that no field is forgotten. Objects come back without a
 * prototype (names from input stay names, src/util/dict.ts); Maps, Sets and other class instances
 * are kept as they are. Depth is bounded by the loaders' limits.
 */
export function mapStrings<T>(value: T, f: (s: string) => string): T {
  if (typeof value === 'string') return f(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f)) as T;
  if (value === null || typeof value !== 'object') return value;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(value)) out[f(k)] = mapStrings(v, f);
  return out as T;
}

/** How a renderer writes values into text of its format: as text, and as code (an id, a path). */
export interface Sink {
  text: (s: string) => string;
  code: (s: string) => string;
}

/** Values as they are (data a terminal renderer already passed through `mapStrings(…, forTerminal)`), code in backticks. */
export const PLAIN: Sink = { text: (s) => s, code: (s) => `\`${s}\`` };

/** Markdown: text through `forMarkdown`, code as a code span through `forMarkdownCode`. */
export const MARKDOWN: Sink = { text: forMarkdown, code: forMarkdownCode };
