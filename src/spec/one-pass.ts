// Schema and semantic errors in one pass: where the schema refuses a value, the semantic rules still run
// on the spec with that value left out, so a user fixing a spec sees every problem at once instead of a
// second batch after the first is fixed. Left out means: the value itself, or the smallest enclosing
// entry that stays well-formed without it. Where that would remove a top-level part of the spec (its
// groups, its tools...), the semantic check would mean nothing, and only the schema's errors are given.
import type { Diagnostic } from './diagnostics.ts';
import { unescapePointer } from './diagnostics.ts';
import { isSpecData, checkSchema, valueAt } from './schema.ts';
import type { PosMap } from './document.ts';
import type { SpecData } from './data.ts';

/** How many rounds of leaving values out before giving up (each round removes what the schema named). */
const MAX_ROUNDS = 4;

/** Parts of the spec whose entries are named entities (a tool, a contract...): an entry may be left out whole. */
const ENTITY_MAPS = new Set(['environments', 'subjects', 'contracts', 'tools', 'groups', 'runners']);

/** The data with every value the schema refused left out, and the pointers left out; null when the check is meaningless. */
export function pruneSchemaErrors(
  data: unknown,
  positions: PosMap,
  file: string,
  errors: Diagnostic[],
): { data: SpecData; pruned: Map<string, Diagnostic> } | null {
  const copy: unknown = structuredClone(data);
  let pending = errors;
  const pruned = new Map<string, Diagnostic>();
  for (let round = 0; round < MAX_ROUNDS && pending.length > 0; round++) {
    for (const d of pending) {
      // The first error of a value is the one its follow-ons are folded under.
      const root = errors.find((e) => e.path === d.path) ?? d;
      // A root cause carries the errors it explains (misplaced.ts): what they refused is left out too.
      for (const part of [d, ...(d.follow_ons ?? [])]) {
        const target = prunable(copy, part);
        if (target === null) return null;
        remove(copy, target);
        if (![...pruned.keys()].some((p) => target === p || target.startsWith(p + '/'))) pruned.set(target, root);
      }
    }
    pending = checkSchema(copy, positions, file);
  }
  if (pending.length > 0 || !isSpecData(copy)) return null;
  return { data: copy, pruned };
}

/** Top-level keys every spec needs (schemas/spec.schema.json): without one, no semantic rule means anything. */
const REQUIRED_TOP = new Set(['benchgrid', 'name', 'title', 'device', 'subjects', 'contracts', 'tools', 'groups']);

const parentOf = (p: string) => p.slice(0, p.lastIndexOf('/'));

/**
 * What to leave out for one schema error: the value it names (a missing key's mapping; an unknown key
 * itself), or the nearest enclosing value whose parent is a mapping (an array element takes its array
 * with it: removing one would renumber the positions of the others). null: a required top-level key.
 */
function prunable(data: unknown, d: Diagnostic): string | null {
  let p = d.path;
  for (;;) {
    if (p === '') return null;
    if (p.split('/').length === 2) return REQUIRED_TOP.has(unescapePointer(p.slice(1))) ? null : p;
    const parent = valueAt(data, parentOf(p));
    if (parent !== undefined && parent !== null && typeof parent === 'object' && !Array.isArray(parent)) return p;
    p = parentOf(p);
  }
}

function remove(data: unknown, pointer: string): void {
  const parts = pointer.split('/').slice(1).map(unescapePointer);
  const last = parts.pop()!;
  let cur: unknown = data;
  for (const k of parts)
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  if (cur !== null && typeof cur === 'object' && !Array.isArray(cur)) delete (cur as Record<string, unknown>)[last];
}

/** The entity a pruned pointer took with it (`/tools/nnsight/...` -> `nnsight`), when it removed one whole. */
function entityOf(pointer: string): string | null {
  const parts = pointer.split('/').slice(1).map(unescapePointer);
  return parts.length === 2 && ENTITY_MAPS.has(parts[0]) ? parts[1] : null;
}

/** Whether `text` names `name` as a whole token. */
function names(text: string | undefined, name: string): boolean {
  if (!text) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w])${escaped}([^\\w]|$)`).test(text);
}

/**
 * The semantic diagnostics of the pruned spec, each either kept, or folded under the schema error that
 * left out what it is about (it points into the pruned value, or names the entity that was left out).
 */
export function foldUnderSchema(
  schema: Diagnostic[],
  semantic: Diagnostic[],
  pruned: Map<string, Diagnostic>,
): Diagnostic[] {
  const follow = new Map<Diagnostic, Diagnostic[]>();
  const kept: Diagnostic[] = [];
  for (const d of semantic) {
    const root = [...pruned].find(
      ([p]) =>
        d.path === p ||
        d.path.startsWith(p + '/') ||
        (entityOf(p) !== null && (names(d.message, entityOf(p)!) || names(d.hint, entityOf(p)!))),
    )?.[1];
    if (root) follow.set(root, [...(follow.get(root) ?? []), d]);
    else kept.push(d);
  }
  const roots = schema.map((d) =>
    follow.has(d) ? { ...d, follow_ons: [...(d.follow_ons ?? []), ...follow.get(d)!] } : d,
  );
  return [...roots, ...kept];
}
