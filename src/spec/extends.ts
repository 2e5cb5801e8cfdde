// Stage 3 of spec loading: follow `extends:` and merge the base under the child, keeping every position.
import path from 'node:path';
import { diag, ptr, type Diagnostic } from './diagnostics.ts';
import { parseYaml, type ParsedDoc, type PosMap } from './document.ts';
import { allowedRoots, describeRoots, leavesRoots } from './places.ts';
import { readSource } from './source.ts';

/** A spec document with its bases merged in, and every file that went into it, base first. */
export interface MergedDoc extends ParsedDoc {
  sources: string[];
  /** The text of every source, by absolute path (digests and `diff --base` use them). */
  texts: Map<string, string>;
}

/** Reads a file as text, e.g. from disk or from `git show REV:path`; returns undefined if it has none. */
export type Reader = (file: string) => Promise<{ ok: true; text: string } | { ok: false; diagnostic: Diagnostic }>;

/** Loads a spec file and everything it extends. `extends` is a path relative to the file that names it. */
export async function loadMerged(file: string, read: Reader = readSource): Promise<{ doc?: MergedDoc; diagnostics: Diagnostic[] }> {
  const top = path.resolve(file);
  return load(top, read, [], allowedRoots(top));
}

async function load(file: string, read: Reader, chain: string[], roots: string[]): Promise<{ doc?: MergedDoc; diagnostics: Diagnostic[] }> {
  const source = await read(file);
  if (!source.ok) return { diagnostics: [source.diagnostic] };
  const parsed = parseYaml(file, source.text);
  if (!parsed.doc) return { diagnostics: parsed.diagnostics };
  const doc = parsed.doc;
  const texts = new Map([[file, source.text]]);
  const data = doc.data;
  if (!isObject(data) || !('extends' in data)) return { doc: { ...doc, sources: [file], texts }, diagnostics: [] };

  const target = data.extends;
  const at = doc.positions.get('/extends')?.value ?? { file, line: 1, col: 1 };
  if (typeof target !== 'string' || target.trim() === '') {
    return { diagnostics: [diag('error', 'bad-extends', at, '/extends', `extends must be a relative path to another spec (got ${JSON.stringify(target)}).`)] };
  }
  const baseFile = path.resolve(path.dirname(file), target);
  const outside = leavesRoots(baseFile, roots);
  if (outside) return { diagnostics: [diag('error', 'extends-outside', at, '/extends', `extends names ${JSON.stringify(target)}, which is ${outside} ${describeRoots(roots)}.`, 'A spec may extend only specs in its own directory tree or an allowed directory (docs/spec.md); copy the base there.')] };
  if (chain.includes(baseFile) || baseFile === file) {
    const cycle = [...chain, file, baseFile].map((f) => path.basename(f)).join(' -> ');
    return { diagnostics: [diag('error', 'extends-cycle', at, '/extends', `extends forms a cycle: ${cycle}.`)] };
  }
  const base = await load(baseFile, read, [...chain, file], roots);
  if (!base.doc) {
    // Report the base's own problems, and where it was named from.
    const named = diag('error', 'bad-extends', at, '/extends', `the spec it extends (${JSON.stringify(target)}) has errors, listed below.`);
    return { diagnostics: [named, ...base.diagnostics] };
  }
  if (!isObject(base.doc.data)) {
    return { diagnostics: [diag('error', 'bad-extends', at, '/extends', `the spec it extends (${JSON.stringify(target)}) is not a mapping of keys to values (got ${Array.isArray(base.doc.data) ? 'a list' : typeof base.doc.data}).`, 'Name another spec file.')] };
  }
  const { extends: _dropped, ...own } = data;
  const positions: PosMap = new Map();
  const merged = merge(base.doc.data, own, '', base.doc.positions, doc.positions, positions);
  for (const [f, t] of base.doc.texts) texts.set(f, t);
  return { doc: { file, data: merged, positions, sources: [...base.doc.sources, file], texts }, diagnostics: [] };
}

/**
 * Deep-merges `over` onto `base`: mappings merge key by key, anything else (lists included) replaces,
 * and `null` removes the key. Positions follow the value that won.
 */
function merge(base: unknown, over: unknown, pointer: string, basePos: PosMap, overPos: PosMap, out: PosMap): unknown {
  if (isObject(base) && isObject(over)) {
    copyPos(overPos, pointer, out, false);
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(base)) {
      if (k in over) continue;
      result[k] = v;
      copyPos(basePos, pointer + ptr(k), out, true);
    }
    for (const [k, v] of Object.entries(over)) {
      if (v === null) continue;
      result[k] = k in base ? merge(base[k], v, pointer + ptr(k), basePos, overPos, out) : v;
      if (!(k in base)) copyPos(overPos, pointer + ptr(k), out, true);
    }
    return result;
  }
  copyPos(overPos, pointer, out, true);
  return over;
}

function copyPos(from: PosMap, pointer: string, to: PosMap, subtree: boolean): void {
  const own = from.get(pointer);
  if (own) to.set(pointer, own);
  if (!subtree) return;
  const prefix = pointer + '/';
  for (const [k, v] of from) if (k.startsWith(prefix)) to.set(k, v);
}

/** A plain mapping (not a list, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
