// `--only GLOB[,GLOB]`: selects cells by glob on their ids. The globs are compiled to a small automaton
// and matched by following every state at once (Thompson's construction), so the cost is at most the
// glob's length times the id's length: a glob like `*a*a*a*a*b` cannot backtrack for minutes on a long
// id, as a regular expression does.
import { UserError } from '../errors.ts';
import { forTerminal } from '../util/escape.ts';

/** Longest `--only` accepted (documented in docs/security.md). */
export const MAX_ONLY_LENGTH = 4096;

/** Deepest nesting of `{a,{b,c}}` alternatives. */
const MAX_BRACE_DEPTH = 16;

const EXAMPLE = "Example: --only 'A/*/{raw,hooks}/*'.";

/** A predicate on cell ids from a comma-separated list of globs; every glob must match something. */
export function onlyFilter(globs: string | undefined, ids: string[]): (id: string) => boolean {
  if (!globs) return () => true;
  if (globs.length > MAX_ONLY_LENGTH)
    throw new UserError(
      `--only is ${globs.length} characters long; at most ${MAX_ONLY_LENGTH} are accepted. Use shorter globs, e.g. 'A/*/hooks/*'.`,
    );
  const patterns = splitGlobs(globs)
    .map((g) => g.trim())
    .filter(Boolean);
  if (patterns.length === 0) throw new UserError(`--only got no glob (got ${JSON.stringify(globs)}). ${EXAMPLE}`);
  const matchers = patterns.map((p) => ({ p, m: compileGlob(p) }));
  for (const { p, m } of matchers) {
    if (!ids.some((id) => m(id))) {
      throw new UserError(
        `--only '${forTerminal(p)}' matches no cell. Cell ids look like GROUP/contract/tool/subject, e.g. '${ids[0] ?? 'A/single_module_output/hooks/resnet18'}'.`,
      );
    }
  }
  return (id) => matchers.some(({ m }) => m(id));
}

/** Splits `--only` at the commas outside braces, so `{raw,hooks}` stays one piece of its glob. */
export function splitGlobs(globs: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < globs.length; i++) {
    const ch = globs[i];
    if (ch === '\\') i++;
    else if (ch === '{') depth++;
    else if (ch === '}' && depth > 0) depth--;
    else if (ch === ',' && depth === 0) {
      out.push(globs.slice(start, i));
      start = i + 1;
    }
  }
  out.push(globs.slice(start));
  return out;
}

// The glob as a tree: a sequence of items, where an alternative holds sequences.
type Item =
  | { t: 'char'; test: (c: string) => boolean }
  | { t: 'star'; slash: boolean } // `*` (no '/'), or any run of characters (`**` as a whole segment)
  | { t: 'opt'; seq: Item[] }
  | { t: 'alt'; options: Item[][] };

const notSlash = (c: string) => c !== '/';
const literal = (ch: string): Item => ({ t: 'char', test: (c) => c === ch });

/**
 * Compiles one glob: `*` any characters but '/', `?` one character but '/', `[a-z]` / `[!a-z]` a class,
 * `{a,b}` alternatives (nested too), `**` as a whole segment any number of segments, `\x` a literal x.
 */
export function compileGlob(glob: string): (id: string) => boolean {
  const parser = { glob, i: 0, depth: 0 };
  const seq = parseSeq(parser);
  if (parser.i < glob.length)
    throw new UserError(`--only '${glob}': a '}' at character ${parser.i + 1} closes no '{'. ${EXAMPLE}`);
  return automaton(seq);
}

function parseSeq(p: { glob: string; i: number; depth: number }, inBraces = false): Item[] {
  const seq: Item[] = [];
  const g = p.glob;
  while (p.i < g.length) {
    const ch = g[p.i];
    if (inBraces && (ch === ',' || ch === '}')) return seq;
    if (!inBraces && ch === '}') return seq;
    if (ch === '{') seq.push(parseBraces(p));
    else if (ch === '*') seq.push(...parseStars(p));
    else if (ch === '?') {
      seq.push({ t: 'char', test: notSlash });
      p.i++;
    } else if (ch === '[') seq.push(parseClass(p));
    else if (ch === '\\' && p.i + 1 < g.length) {
      seq.push(literal(g[p.i + 1]));
      p.i += 2;
    } else {
      seq.push(literal(ch));
      p.i++;
    }
  }
  return seq;
}

function parseBraces(p: { glob: string; i: number; depth: number }): Item {
  const open = p.i;
  if (++p.depth > MAX_BRACE_DEPTH)
    throw new UserError(`--only '${p.glob}' nests '{...}' deeper than ${MAX_BRACE_DEPTH} levels. ${EXAMPLE}`);
  p.i++;
  const options: Item[][] = [parseSeq(p, true)];
  while (p.glob[p.i] === ',') {
    p.i++;
    options.push(parseSeq(p, true));
  }
  if (p.glob[p.i] !== '}')
    throw new UserError(`--only '${p.glob}': the '{' at character ${open + 1} is not closed. ${EXAMPLE}`);
  p.i++;
  p.depth--;
  return { t: 'alt', options };
}

/** `*`, or `**` standing alone as a segment: any number of whole segments, the slashes around it included. */
function parseStars(p: { glob: string; i: number }): Item[] {
  const g = p.glob;
  let end = p.i;
  while (g[end] === '*') end++;
  const segmentStart = p.i === 0 || g[p.i - 1] === '/';
  const segmentEnd = end === g.length || g[end] === '/' || g[end] === ',' || g[end] === '}';
  const globstar = end - p.i === 2 && segmentStart && segmentEnd;
  p.i = end;
  if (!globstar) return [{ t: 'star', slash: false }];
  if (g[end] === '/') {
    // `**/`: nothing, or any characters ending in '/'.
    p.i++;
    return [{ t: 'opt', seq: [{ t: 'star', slash: true }, literal('/')] }];
  }
  return [{ t: 'star', slash: true }];
}

function parseClass(p: { glob: string; i: number }): Item {
  const g = p.glob;
  const close = g.indexOf(']', p.i + 2);
  if (close < 0) {
    p.i++;
    return literal('[');
  }
  let body = g.slice(p.i + 1, close);
  p.i = close + 1;
  const negated = body[0] === '!' || body[0] === '^';
  if (negated) body = body.slice(1);
  const ranges: [string, string][] = [];
  for (let k = 0; k < body.length; k++) {
    if (body[k + 1] === '-' && k + 2 < body.length) {
      ranges.push([body[k], body[k + 2]]);
      k += 2;
    } else ranges.push([body[k], body[k]]);
  }
  return { t: 'char', test: (c) => c !== '/' && ranges.some(([a, b]) => c >= a && c <= b) !== negated };
}

// The automaton: a state either reads one character (`test`, then `out[0]`) or moves on without
// reading (`out`, each). The last state accepts.
interface State {
  test?: (c: string) => boolean;
  out: number[];
}

function automaton(seq: Item[]): (id: string) => boolean {
  const states: State[] = [{ out: [] }];
  const accept = 0;
  const start = build(seq, accept, states);
  // Which states a step has already reached, by step number (never reset: the numbers only grow).
  const mark = new Float64Array(states.length).fill(-1);
  let gen = 0;
  /** Adds `s` and every state reachable from it without reading to `into`, once per step. */
  const close = (s: number, into: number[]) => {
    const stack = [s];
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (mark[x] === gen) continue;
      mark[x] = gen;
      into.push(x);
      if (!states[x].test) for (const o of states[x].out) stack.push(o);
    }
  };
  return (id) => {
    gen++;
    let current: number[] = [];
    close(start, current);
    for (let k = 0; k < id.length; k++) {
      const c = id[k];
      const next: number[] = [];
      gen++;
      for (const s of current) if (states[s].test?.(c)) close(states[s].out[0], next);
      if (next.length === 0) return false;
      current = next;
    }
    return current.includes(accept);
  };
}

/** Adds the states of `seq` followed by state `next`; returns its first state. */
function build(seq: Item[], next: number, states: State[]): number {
  let at = next;
  for (let k = seq.length - 1; k >= 0; k--) at = buildItem(seq[k], at, states);
  return at;
}

function buildItem(item: Item, next: number, states: State[]): number {
  const add = (s: State) => states.push(s) - 1;
  if (item.t === 'char') return add({ test: item.test, out: [next] });
  if (item.t === 'opt') return add({ out: [build(item.seq, next, states), next] });
  if (item.t === 'alt') return add({ out: item.options.map((o) => build(o, next, states)) });
  // A loop: read one more character and come back, or go on.
  const loop = add({ out: [] });
  const read = add({ test: item.slash ? () => true : notSlash, out: [loop] });
  states[loop].out.push(read, next);
  return loop;
}
