// Stage 3 of spec loading: follow `extends:` and merge the base under the child, keeping every position.
import path from 'node:path';
import { diag, ptr, type Diagnostic, type Pos } from './diagnostics.ts';
import { parseYaml, type ParsedDoc, type PosMap } from './document.ts';
import { allowedRoots, describeRoots, leavesRoots } from './places.ts';
import { MAX_SPEC_VALUES } from './limits.ts';
import { MAX_SPEC_BYTES, readSource } from './source.ts';

/** A spec document with its bases merged in, and every file that went into it, base first. */
export interface MergedDoc extends ParsedDoc {
  sources: string[];
  /** The text of every source, by absolute path (digests and `diff --base` use them). */
  texts: Map<string, string>;
}

/** Reads a file as text, e.g. from disk or from `git show REV:path`; returns undefined if it has none. */
export type Reader = (file: string) => Promise<{ ok: true; text: string } | { ok: false; diagnostic: Diagnostic }>;

/** Longest chain of `extends`: real specs extend one or two others. */
export const MAX_EXTENDS_DEPTH = 32;

/** What the files of one chain have used of the limits, which hold for the whole chain (docs/security.md). */
interface Budget {
  values: number;
  bytes: number;
}

/** Loads a spec file and everything it extends. `extends` is a path relative to the file that names it. */
export async function loadMerged(
  file: string,
  read: Reader = readSource,
): Promise<{ doc?: MergedDoc; diagnostics: Diagnostic[] }> {
  const top = path.resolve(file);
  return load(top, read, [], allowedRoots(top), { values: 0, bytes: 0 });
}

async function load(
  file: string,
  read: Reader,
  chain: string[],
  roots: string[],
  used: Budget,
): Promise<{ doc?: MergedDoc; diagnostics: Diagnostic[] }> {
  const source = await read(file);
  if (!source.ok) return { diagnostics: [source.diagnostic] };
  used.bytes += Buffer.byteLength(source.text);
  if (chain.length > 0 && used.bytes > MAX_SPEC_BYTES) return { diagnostics: [chainTooLarge(file, used.bytes)] };
  const parsed = parseYaml(file, source.text, MAX_SPEC_VALUES - used.values, chain.length > 0);
  if (!parsed.doc) return { diagnostics: parsed.diagnostics };
  const doc = parsed.doc;
  used.values += doc.values;
  const texts = new Map([[file, source.text]]);
  const data = doc.data;
  if (!isObject(data) || !Object.hasOwn(data, 'extends'))
    return { doc: { ...doc, sources: [file], texts }, diagnostics: [] };

  const target = data.extends;
  const at = doc.positions.get('/extends')?.value ?? { file, line: 1, col: 1 };
  const named = resolveBase(file, target, at, chain, roots);
  if ('diagnostic' in named) return { diagnostics: [named.diagnostic] };
  const base = await load(named.baseFile, read, [...chain, file], roots, used);
  if (!base.doc) {
    // Report the base's own problems, and where it was named from.
    const where = diag(
      'error',
      'bad-extends',
      at,
      '/extends',
      `the spec it extends (${JSON.stringify(target)}) has errors, listed below.`,
    );
    return { diagnostics: [where, ...base.diagnostics] };
  }
  if (!isObject(base.doc.data)) return { diagnostics: [baseNotMapping(target, base.doc.data, at)] };
  const { extends: _dropped, ...own } = data;
  const positions: PosMap = new Map();
  const merged = merge(base.doc.data, own, '', base.doc.positions, doc.positions, positions);
  for (const [f, t] of base.doc.texts) texts.set(f, t);
  return {
    doc: { file, data: merged, positions, values: used.values, sources: [...base.doc.sources, file], texts },
    diagnostics: [],
  };
}

/** The error for a chain whose files together pass the byte limit, reported at the top of the file that passed it. */
function chainTooLarge(file: string, bytes: number): Diagnostic {
  const mb = (bytes / 1048576).toFixed(1);
  return diag(
    'error',
    'too-large',
    { file, line: 1, col: 1 },
    '',
    `this spec and the specs that extend it hold ${mb} MB together; a spec with the specs it extends may be at most ${MAX_SPEC_BYTES / 1048576} MB.`,
    'Is this really a spec? (docs/security.md)',
  );
}

/**
 * The absolute file that `extends: target` names, or why it may not be followed: not a path, outside the
 * allowed roots, a cycle, or a chain too deep. Checked in that order, before the base is read.
 */
function resolveBase(
  file: string,
  target: unknown,
  at: Pos,
  chain: string[],
  roots: string[],
): { baseFile: string } | { diagnostic: Diagnostic } {
  if (typeof target !== 'string' || target.trim() === '') {
    return {
      diagnostic: diag(
        'error',
        'bad-extends',
        at,
        '/extends',
        `extends must be a relative path to another spec (got ${JSON.stringify(target)}).`,
      ),
    };
  }
  const baseFile = path.resolve(path.dirname(file), target);
  const outside = leavesRoots(baseFile, roots);
  if (outside)
    return {
      diagnostic: diag(
        'error',
        'extends-outside',
        at,
        '/extends',
        `extends names ${JSON.stringify(target)}, which is ${outside} ${describeRoots(roots)}.`,
        'A spec may extend only specs in its own directory tree or an allowed directory (docs/spec.md); copy the base there.',
      ),
    };
  if (chain.includes(baseFile) || baseFile === file) {
    const cycle = [...chain, file, baseFile].map((f) => path.basename(f)).join(' -> ');
    return { diagnostic: diag('error', 'extends-cycle', at, '/extends', `extends forms a cycle: ${cycle}.`) };
  }
  if (chain.length + 1 >= MAX_EXTENDS_DEPTH) {
    return {
      diagnostic: diag(
        'error',
        'too-large',
        at,
        '/extends',
        `extends more than ${MAX_EXTENDS_DEPTH} specs deep.`,
        'Merge some of the bases into one (docs/security.md).',
      ),
    };
  }
  return { baseFile };
}

/** The error for a base that parsed but whose top level is a list or a scalar, so there is nothing to merge under. */
function baseNotMapping(target: unknown, data: unknown, at: Pos): Diagnostic {
  return diag(
    'error',
    'bad-extends',
    at,
    '/extends',
    `the spec it extends (${JSON.stringify(target)}) is not a mapping of keys to values (got ${Array.isArray(data) ? 'a list' : typeof data}).`,
    'Name another spec file.',
  );
}

/**
 * Deep-merges `over` onto `base`: mappings merge key by key, anything else (lists included) replaces,
 * and `null` removes the key. Positions follow the value that won. Linear in the two documents: each
 * value's positions are copied by walking that value, never by scanning every position.
 */
function merge(base: unknown, over: unknown, pointer: string, basePos: PosMap, overPos: PosMap, out: PosMap): unknown {
  if (isObject(base) && isObject(over)) {
    const own = overPos.get(pointer);
    if (own) out.set(pointer, own);
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(base)) {
      if (Object.hasOwn(over, k)) continue;
      define(result, k, v);
      copyPositions(v, pointer + ptr(k), basePos, out);
    }
    for (const [k, v] of Object.entries(over)) {
      if (v === null) continue;
      if (Object.hasOwn(base, k)) define(result, k, merge(base[k], v, pointer + ptr(k), basePos, overPos, out));
      else {
        define(result, k, v);
        copyPositions(v, pointer + ptr(k), overPos, out);
      }
    }
    return result;
  }
  copyPositions(over, pointer, overPos, out);
  return over;
}

/** `o[k] = v` as an own property, whatever `k` is (`__proto__` included). */
function define(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** Copies the positions of `value` and everything inside it, walking the value (depth is bounded by the limits). */
function copyPositions(value: unknown, pointer: string, from: PosMap, to: PosMap): void {
  const own = from.get(pointer);
  if (own) to.set(pointer, own);
  if (Array.isArray(value)) value.forEach((v, i) => copyPositions(v, pointer + ptr(i), from, to));
  else if (isObject(value)) for (const [k, v] of Object.entries(value)) copyPositions(v, pointer + ptr(k), from, to);
}

/** A plain mapping (not a list, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
