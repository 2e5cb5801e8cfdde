// Maps from names that come from input (tool, subject, contract, group, runner, site, environment,
// library and cell names) to values. A plain `{}` answers `tools['constructor']` with Object's own
// constructor and turns `subjects['__proto__'] = x` into a change of prototype; these objects have no
// prototype, so every name is only what the input made it.

/** An empty map from names to values, without a prototype. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A map without a prototype holding `entries` (pairs, or the own entries of an object). */
export function dictOf<T>(entries: Iterable<readonly [string, T]> | Record<string, T>): Record<string, T> {
  const out = dict<T>();
  const pairs =
    Symbol.iterator in entries
      ? (entries as Iterable<readonly [string, T]>)
      : Object.entries(entries as Record<string, T>);
  for (const [k, v] of pairs) out[k] = v;
  return out;
}
