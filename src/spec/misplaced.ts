// One outdented key, one error. A key of a subject written at the subject's own column is still valid
// YAML: it becomes a subject of its own. The schema then says the subject lacks the key, and that the
// new "subject" lacks every key a subject needs (six errors for one mistake). When a mapping lacks a
// required key and that very key is the next entry of the mapping's parent, written right below the
// mapping's last line, the key was meant to be inside it: that is the one error, at the key, with the
// column it belongs at; what the schema said about it is folded under it.
import type { ErrorObject } from 'ajv';
import { diag, ptr, type Diagnostic, type Pos } from './diagnostics.ts';
import type { PosMap } from './document.ts';
import { misindentedSentence } from './indentation.ts';
import { valueAt } from './schema.ts';

/** A required key found one level up: the mapping that lacks it, where the key is, and its keys' column. */
interface Misplaced {
  owner: string;
  key: string;
  at: Pos;
  pointer: string;
  keysCol: number;
}

const isMapping = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const parentOf = (p: string) => p.slice(0, p.lastIndexOf('/'));
const isAtOrUnder = (p: string, root: string) => p === root || p.startsWith(root + '/');

/** The diagnostics with each outdented key's errors folded under one `misplaced-key` error at the key. */
export function foldMisplacedKeys(
  diagnostics: Diagnostic[],
  errors: ErrorObject[],
  data: unknown,
  positions: PosMap,
): Diagnostic[] {
  let out = diagnostics;
  for (const e of errors) {
    if (e.keyword !== 'required' || e.instancePath === '') continue;
    const found = misplaced(e.instancePath, String(e.params.missingProperty), data, positions);
    // The key must itself be refused where it is: a valid entry of that name is not a mistake.
    if (!found || !out.some((d) => isAtOrUnder(d.path, found.pointer))) continue;
    out = fold(out, found);
  }
  return out;
}

function fold(diagnostics: Diagnostic[], m: Misplaced): Diagnostic[] {
  const explained = (d: Diagnostic) =>
    isAtOrUnder(d.path, m.pointer) ||
    (d.code === 'missing-key' && d.path === m.owner && d.message.includes(`'${m.key}'`));
  const follow = diagnostics.filter(explained);
  const { message, hint } = misindentedSentence({
    line: m.at.line,
    col: m.at.col,
    expected: m.keysCol,
    key: m.key,
    parent: m.owner,
    pointer: m.pointer,
  });
  const root: Diagnostic = { ...diag('error', 'misplaced-key', m.at, m.pointer, message, hint), follow_ons: follow };
  const first = diagnostics.findIndex(explained);
  const rest = diagnostics.filter((d) => !explained(d));
  return [...rest.slice(0, first), root, ...rest.slice(first)];
}

/**
 * Whether `key`, missing from the mapping at `owner`, is the entry of the owner's parent that follows
 * the owner, below the owner's last line and to the left of its keys: the owner's key, outdented.
 */
function misplaced(owner: string, key: string, data: unknown, positions: PosMap): Misplaced | undefined {
  const parent = parentOf(owner);
  const mine = valueAt(data, owner);
  const theirs = valueAt(data, parent);
  if (!isMapping(mine) || !isMapping(theirs) || !Object.hasOwn(theirs, key)) return undefined;
  const pointer = parent + ptr(key);
  const at = positions.get(pointer)?.key;
  const ownerAt = positions.get(owner);
  if (!at || !ownerAt?.key) return undefined;
  // The owner's own keys, in file order; a one-line `{ ... }` mapping has no column to belong at.
  const keys = Object.keys(mine)
    .map((k) => positions.get(owner + ptr(k))?.key)
    .filter((p): p is Pos => p !== undefined && p.file === at.file);
  if (keys.length === 0 || ownerAt.value.line <= ownerAt.key.line) return undefined;
  keys.sort((a, b) => a.line - b.line);
  const keysCol = keys[0].col;
  if (at.file !== ownerAt.key.file || at.col >= keysCol || at.line <= keys[keys.length - 1].line) return undefined;
  // Right after the owner: no other entry of the parent between the two.
  const between = Object.keys(theirs).some((k) => {
    const p = positions.get(parent + ptr(k))?.key;
    return p !== undefined && p.file === at.file && p.line > ownerAt.key!.line && p.line < at.line;
  });
  return between ? undefined : { owner, key, at, pointer, keysCol };
}
