// Diagnostics: one problem in one file at one position, formatted `file:line:col path: message`.
import path from 'node:path';
import { forTerminal } from '../util/escape.ts';

/** A position in a source file; line and column are 1-based. */
export interface Pos {
  file: string;
  line: number;
  col: number;
}

/** One problem found while loading or checking a spec. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  file: string;
  line: number;
  col: number;
  /** JSON pointer of the offending value in the resolved spec, '' for the whole document. */
  path: string;
  message: string;
  /** What to do about it; optional. */
  hint?: string;
  /** A stable machine-readable code, e.g. `unknown-tool`. */
  code: string;
  /** Diagnostics caused by this one (an unknown name's consequences), folded under it: fix this and they go. */
  follow_ons?: Diagnostic[];
}

/** Builds a diagnostic at a position. */
export function diag(
  severity: Diagnostic['severity'],
  code: string,
  at: Pos,
  pointer: string,
  message: string,
  hint?: string,
): Diagnostic {
  return {
    severity,
    code,
    file: at.file,
    line: at.line,
    col: at.col,
    path: pointer,
    message: oneLine(message),
    hint: hint === undefined ? undefined : oneLine(hint),
  };
}

/**
 * A diagnostic is one line whatever the spec holds: line breaks and control characters in quoted
 * values (a key, a path) are written as escapes, and an overlong quote is cut.
 */
function oneLine(text: string): string {
  const flat = forTerminal(text);
  return flat.length > 1000 ? `${flat.slice(0, 997)}...` : flat;
}

/** Formats a diagnostic for a terminal, with the file relative to cwd. */
export function formatDiagnostic(d: Diagnostic, cwd = process.cwd()): string {
  const file = forTerminal(path.isAbsolute(d.file) ? path.relative(cwd, d.file) || d.file : d.file);
  // The path holds the spec's own keys: a key may hold a line break (it printed a line of its own).
  const where = d.path ? ` ${forTerminal(pointerToDots(d.path))}` : '';
  const tag = d.severity === 'warning' ? 'warning: ' : '';
  const hint = d.hint ? ` ${d.hint}` : '';
  return `${file}:${d.line}:${d.col}${where}: ${tag}${d.message}${hint}${foldedNote(d)}`;
}

/** The line under a root cause that says how many follow-ons it caused, and where (never the whole list). */
function foldedNote(d: Diagnostic): string {
  const n = d.follow_ons?.length ?? 0;
  if (n === 0) return '';
  const lines = [...new Set(d.follow_ons!.map((f) => f.line))].sort((a, b) => a - b);
  const shown = lines.length > 12 ? `${lines.slice(0, 12).join(', ')}, ...` : lines.join(', ');
  return `\n  (+${n} follow-on error${n === 1 ? '' : 's'} caused by this one, at line${lines.length === 1 ? '' : 's'} ${shown}; they go away with it. --json lists them.)`;
}

/** `/groups/A/tools/3` -> `groups.A.tools[3]`, the way people read YAML paths. */
export function pointerToDots(pointer: string): string {
  const parts = pointer.split('/').slice(1).map(unescapePointer);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

/** Escapes one JSON pointer segment. */
export function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one JSON pointer segment. */
export function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Joins pointer segments. */
export function ptr(...parts: (string | number)[]): string {
  return parts.map((p) => '/' + escapePointer(String(p))).join('');
}

/** The closest candidate by edit distance, if it is close enough to be a likely typo. */
export function didYouMean(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = levenshtein(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(2, Math.floor(Math.max(word.length, best.length) / 3));
  return bestD <= limit ? best : undefined;
}

/** A "did you mean" sentence or a list of what exists. */
export function suggestion(word: string, candidates: string[], noun: string): string {
  const best = didYouMean(word, candidates);
  if (best) return `Did you mean '${best}'?`;
  if (candidates.length === 0) return `No ${noun}s are declared.`;
  const shown = candidates.slice(0, 8).join(', ');
  return `Declared ${noun}s: ${shown}${candidates.length > 8 ? ', ...' : ''}.`;
}

function levenshtein(a: string, b: string): number {
  const prev = new Array(b.length + 1).fill(0).map((_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = up;
    }
  }
  return prev[b.length];
}
