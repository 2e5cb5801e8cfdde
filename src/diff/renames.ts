// Rename detection, and the field-by-field comparison of two definitions that it and the diff share.
import { canonicalJson } from '../spec/normalise.ts';
import type { Spec } from '../spec/types.ts';
import type { FieldChange, Rename } from './model.ts';

/** Old id -> new id for every renamed contract, tool and subject. */
export interface RenameMaps {
  contract: Map<string, string>;
  tool: Map<string, string>;
  subject: Map<string, string>;
}

/**
 * What must be equal for two ids to be one thing renamed: the resolved definition without its id and
 * label. Labels are cosmetic and often change with the id; they only break ties. A contract's `kind`
 * defaults to its id and a tool's `adapter` to its id, so a rename that keeps the meaning keeps them
 * explicitly (`kind: OLD_ID`, `adapter: OLD_ID`); otherwise it really is a different contract or tool.
 */
export const DEFINITION = {
  contract: (s: Spec, id: string) => ({
    kind: s.contracts[id].kind,
    site: s.contracts[id].site,
    params: s.contracts[id].params,
  }),
  tool: (s: Spec, id: string) => ({
    runner: s.tools[id].runner,
    adapter: s.tools[id].adapter,
    environment: s.tools[id].environment,
  }),
  subject: (s: Spec, id: string) => ({
    model: s.subjects[id].model,
    inputs: s.subjects[id].inputs,
    sites: s.subjects[id].sites,
    pairing: s.subjects[id].pairing,
  }),
} as const;

const LABEL = {
  contract: (s: Spec, id: string) => s.contracts[id].label,
  tool: (s: Spec, id: string) => s.tools[id].label,
  subject: (s: Spec, id: string) => s.subjects[id].label,
};

const IDS = {
  contract: (s: Spec) => Object.keys(s.contracts),
  tool: (s: Spec) => Object.keys(s.tools),
  subject: (s: Spec) => Object.keys(s.subjects),
};

/** Finds renamed contracts, tools and subjects: an id only in old and one only in new with equal definitions. */
export function detectRenames(old: Spec, neu: Spec): { renames: Rename[]; maps: RenameMaps } {
  const renames: Rename[] = [];
  const maps: RenameMaps = { contract: new Map(), tool: new Map(), subject: new Map() };
  for (const kind of ['subject', 'contract', 'tool'] as const) {
    for (const [from, to] of pairUp(kind, old, neu)) {
      renames.push({ kind, from, to });
      maps[kind].set(from, to);
    }
  }
  return { renames, maps };
}

/** Pairs ids that vanished with ids that appeared, only where the pairing is unambiguous. */
function pairUp(kind: keyof typeof DEFINITION, old: Spec, neu: Spec): [string, string][] {
  const oldIds = IDS[kind](old);
  const newIds = IDS[kind](neu);
  const gone = oldIds.filter((id) => !newIds.includes(id));
  const born = newIds.filter((id) => !oldIds.includes(id));
  const byKey = new Map<string, { gone: string[]; born: string[] }>();
  const bucket = (key: string) => byKey.get(key) ?? byKey.set(key, { gone: [], born: [] }).get(key)!;
  for (const id of gone) bucket(canonicalJson(DEFINITION[kind](old, id))).gone.push(id);
  for (const id of born) bucket(canonicalJson(DEFINITION[kind](neu, id))).born.push(id);
  const pairs: [string, string][] = [];
  for (const { gone: g, born: b } of byKey.values()) {
    if (g.length === 1 && b.length === 1) {
      pairs.push([g[0], b[0]]);
      continue;
    }
    // Several candidates with one definition: pair those whose label is unique on both sides and equal.
    for (const from of g) {
      const label = LABEL[kind](old, from);
      const sameOld = g.filter((x) => LABEL[kind](old, x) === label);
      const sameNew = b.filter((x) => LABEL[kind](neu, x) === label);
      if (sameOld.length === 1 && sameNew.length === 1) pairs.push([from, sameNew[0]]);
    }
  }
  return pairs.sort((x, y) => oldIds.indexOf(x[0]) - oldIds.indexOf(y[0]));
}

/** The id a thing has in the new spec: renamed, or unchanged. */
export function renamed(map: Map<string, string>, id: string): string {
  return map.get(id) ?? id;
}

/** The id a thing had in the old spec. */
export function formerly(map: Map<string, string>, id: string): string {
  for (const [from, to] of map) if (to === id) return from;
  return id;
}

/** Leaf-by-leaf differences of two plain values; lists are compared whole. Absent values show as null. */
export function fieldChanges(a: unknown, b: unknown, prefix = ''): FieldChange[] {
  if (isPlain(a) && isPlain(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter((k) => !(k in a))];
    return keys.flatMap((k) => fieldChanges(a[k], b[k], prefix ? `${prefix}.${k}` : k));
  }
  if (canonicalJson(a ?? null) === canonicalJson(b ?? null)) return [];
  return [{ path: prefix, from: a ?? null, to: b ?? null }];
}

function isPlain(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
