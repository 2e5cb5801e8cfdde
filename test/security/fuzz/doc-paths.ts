// Places in a parsed document (a spec or a results file as JSON): where its values of a type are, and how to
// reach one again in a copy of it.

/** A value's parent and its key there. */
export type Place = [Record<string, unknown> | unknown[], string | number];

/** Every (parent, key) holding a value of the given type, in a fixed order. */
export function places(doc: unknown, type: 'string' | 'number'): Place[] {
  const out: Place[] = [];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((x, i) => (typeof x === type ? out.push([v, i]) : visit(x)));
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v))
        typeof x === type ? out.push([v as Record<string, unknown>, k]) : visit(x);
  };
  visit(doc);
  return out;
}

/** Sets the value at a place: an array's index or an object's key. */
export const setAt = (p: Record<string, unknown> | unknown[], k: string | number, v: unknown) => {
  if (Array.isArray(p)) p[k as number] = v;
  else p[k as string] = v;
};

/** The keys from `doc` down to `parent[key]` (found by identity in `doc`). */
export function pathTo(doc: unknown, parent: unknown, key: string | number): (string | number)[] {
  const walk = (v: unknown, trail: (string | number)[]): (string | number)[] | null => {
    if (v === parent) return [...trail, key];
    if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        const found = walk(x, [...trail, Array.isArray(v) ? Number(k) : k]);
        if (found) return found;
      }
    return null;
  };
  return walk(doc, []) ?? [];
}

/** [parent, key] of a path in a document. */
export function locate(doc: unknown, trail: (string | number)[]): Place {
  let at = doc as Record<string | number, unknown>;
  for (const k of trail.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  return [at as Record<string, unknown>, trail[trail.length - 1]];
}
