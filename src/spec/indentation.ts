// The root cause of a YAML indentation error, in words. The `yaml` parser reports where its reading
// broke ("All mapping items must start at the same column" on the line after the mistake, "Nested
// mappings are not allowed in compact mappings" on the line before it), not which line is out of line.
// This reads the text again as a user sees it (lines that start a key or a list item, at a column) and
// names the first line whose column differs from its siblings', with the column they share. It is
// asked only once the parser has refused the file for its indentation, and only for a line no later
// than the parser's errors: a construct it does not follow costs a better sentence, never a verdict.
import { escapePointer, pointerToDots } from './diagnostics.ts';

/** A line that is out of line: its 1-based line and column, the column its siblings share, and whose they are. */
export interface Misindented {
  line: number;
  col: number;
  expected: number;
  /** The key it starts, or undefined for a list item (`- ...`). */
  key?: string;
  /** JSON pointer of the mapping or list it belongs to ('' for the top level). */
  parent: string;
  /** JSON pointer of the entry itself. */
  pointer: string;
}

/** One line's start of a mapping entry or list item; `- key: v` is two, the item and its first key. */
interface Entry {
  line: number;
  col: number;
  key?: string;
  /** It has no value on its line, so more indented lines below it are its value. */
  opens: boolean;
}

/** An open mapping or list: the entry it is the value of (null: the document) and its members. */
interface Block {
  owner: Entry | null;
  pointer: string;
  members: Entry[];
}

/** The first out-of-line entry of a YAML text, if its lines show one. */
export function findMisindented(text: string): Misindented | undefined {
  const blocks: Block[] = [];
  const closed: Block[] = [];
  const open: Block[] = [{ owner: null, pointer: '', members: [] }];
  for (const e of entries(text)) {
    // Blocks whose owner is at this column or deeper end here; `key:` followed by `- item` at the
    // key's own column is YAML's compact list, still the key's value.
    while (open.length > 1 && open[open.length - 1].owner!.col >= e.col && !compactItem(open[open.length - 1], e))
      closed.push(open.pop()!);
    const block = open[open.length - 1];
    block.members.push(e);
    if (e.opens) open.push({ owner: e, pointer: memberPointer(block, e), members: [] });
  }
  blocks.push(...closed, ...open);
  let first: Misindented | undefined;
  for (const b of blocks) {
    const found = outOfLine(b);
    if (found && (!first || found.line < first.line)) first = found;
  }
  return first;
}

function compactItem(block: Block, e: Entry): boolean {
  const owner = block.owner!;
  return (
    e.key === undefined &&
    owner.key !== undefined &&
    e.col === owner.col &&
    block.members.every((m) => m.col === e.col && m.key === undefined)
  );
}

/** A block's first member whose column is not the one most of them share (the first member's on a tie). */
function outOfLine(b: Block): Misindented | undefined {
  const counts = new Map<number, number>();
  for (const m of b.members) counts.set(m.col, (counts.get(m.col) ?? 0) + 1);
  if (counts.size < 2) return undefined;
  let expected = b.members[0].col;
  for (const [col, n] of counts) if (n > counts.get(expected)!) expected = col;
  const m = b.members.find((x) => x.col !== expected)!;
  return { line: m.line, col: m.col, expected, key: m.key, parent: b.pointer, pointer: memberPointer(b, m) };
}

function memberPointer(b: Block, e: Entry): string {
  if (e.key !== undefined) return `${b.pointer}/${escapePointer(e.key)}`;
  return `${b.pointer}/${b.members.filter((m) => m.key === undefined && m.line <= e.line).length - 1}`;
}

/** What a pointer is, for a sentence: `subject 'resnet18'`, `the top level`, or its dotted path. */
export function describeParent(pointer: string): string {
  if (pointer === '') return 'the top level of the spec';
  const m = /^\/(subjects|contracts|tools|groups|environments|runners)\/([^/]+)$/.exec(pointer);
  if (m) return `${m[1].slice(0, -1)} \`${pointerToDots(`/${m[2]}`)}\``;
  return `\`${pointerToDots(pointer)}\``;
}

/** The one sentence and what to do, for a diagnostic. */
export function misindentedSentence(m: Misindented): { message: string; hint: string } {
  const what = m.key !== undefined ? `\`${m.key}\`` : 'this list item';
  const theirs = m.key !== undefined ? 'its keys are' : 'its items are';
  const move = m.col < m.expected ? 'Indent it' : 'Move it left';
  return {
    message: `${what} is at column ${m.col} but belongs to ${describeParent(m.parent)} (${theirs} at column ${m.expected}).`,
    hint: `${move} to column ${m.expected}.`,
  };
}

// Reading lines. A key is plain or quoted text followed by ':' and a space or the line's end; a list
// item starts with '- '. Lines inside a flow collection ([...], {...}) or a quoted scalar that spans
// lines, the lines of a block scalar (| or >), comments and blank lines start nothing.

const KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"{}[\],&*!|>%@`?-][^#]*?|-[^\s#][^#]*?)[ \t]*:(?:[ \t]+|$)/;
const BLOCK_SCALAR = /^[|>][-+0-9]*[ \t]*(#.*)?$/;
/** A value that holds nothing yet: an anchor or a tag alone, or a comment. */
const EMPTY = /^((&\S+|!\S*)[ \t]*)*(#.*)?$/;

function* entries(text: string): Generator<Entry> {
  const lines = text.split(/\r?\n/);
  const state: Flow = { depth: 0, quote: null };
  let scalarAbove: number | null = null; // a block scalar's lines are deeper than this column
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    const indent = raw.length - raw.trimStart().length;
    const body = raw.slice(indent);
    if (scalarAbove !== null) {
      if (body === '' || indent + 1 > scalarAbove) continue;
      scalarAbove = null;
    }
    if (state.depth > 0 || state.quote !== null) {
      scan(raw, 0, state);
      continue;
    }
    if (body === '' || body.startsWith('#') || /^(---|\.\.\.)(\s|$)/.test(body) || body.startsWith('%')) continue;
    let col = indent + 1;
    let rest = body;
    let item = col; // a block scalar right after `- ` is deeper than the dash
    // `- - key: v`: an item in an item; each dash is an item at its column.
    for (;;) {
      const dash = /^-([ \t]+|$)/.exec(rest);
      if (dash) {
        const after = rest.slice(dash[0].length);
        yield { line: i + 1, col, opens: EMPTY.test(after) || KEY.test(after) || /^-([ \t]|$)/.test(after) };
        item = col;
        col += dash[0].length;
        rest = after;
        if (rest === '' || rest.startsWith('#')) break;
        continue;
      }
      const key = KEY.exec(rest);
      if (key) {
        const value = rest.slice(key[0].length);
        yield { line: i + 1, col, key: unquote(key[1]), opens: EMPTY.test(value) };
        if (BLOCK_SCALAR.test(value)) scalarAbove = col;
        else scan(value, 0, state);
      } else if (BLOCK_SCALAR.test(rest)) {
        scalarAbove = item;
      } else {
        scan(rest, 0, state);
      }
      break;
    }
  }
}

function unquote(key: string): string {
  if (key.startsWith('"')) {
    try {
      return JSON.parse(key) as string;
    } catch {
      return key.slice(1, -1);
    }
  }
  if (key.startsWith("'")) return key.slice(1, -1).replace(/''/g, "'");
  return key;
}

/** Flow depth and an open quote, carried from line to line. */
interface Flow {
  depth: number;
  quote: '"' | "'" | null;
}

/** Follows brackets and quotes through a line's value; a quote opens only where a scalar starts (`it's` is text). */
function scan(text: string, from: number, s: Flow): void {
  let scalarStart = s.quote === null;
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (s.quote === '"') {
      if (ch === '\\') i++;
      else if (ch === '"') s.quote = null;
      continue;
    }
    if (s.quote === "'") {
      if (ch === "'" && text[i + 1] === "'") i++;
      else if (ch === "'") s.quote = null;
      continue;
    }
    if (ch === ' ' || ch === '\t') continue;
    if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]))) return;
    if ((ch === '"' || ch === "'") && scalarStart) s.quote = ch;
    else if (ch === '[' || ch === '{') s.depth++;
    else if ((ch === ']' || ch === '}') && s.depth > 0) s.depth--;
    scalarStart =
      ch === '[' ||
      ch === '{' ||
      ch === ',' ||
      (ch === ':' && /\s|$/.test(text[i + 1] ?? '')) ||
      (ch === '-' && /\s/.test(text[i + 1] ?? ''));
  }
}
