// Stable JSON: sorted keys, one-space indent (as the seed's file), trailing newline, so results diff cleanly.

/**
 * Serialises with object keys sorted at every level, except inside objects held under a key in
 * `keepOrder` (a results file's `groups`, whose cells stay in plan order: that order is meaningful).
 */
export function stableStringify(value: unknown, keepOrder: ReadonlySet<string> = new Set(['groups'])): string {
  return JSON.stringify(sortKeys(value, keepOrder, false), null, 1) + '\n';
}

function sortKeys(v: unknown, keepOrder: ReadonlySet<string>, keep: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => sortKeys(x, keepOrder, false));
  if (v && typeof v === 'object') {
    // No prototype: a key `__proto__` (a subject of a results file, say) is written as a key.
    const out: Record<string, unknown> = Object.create(null);
    const keys = Object.keys(v as object);
    for (const k of keep ? keys : keys.sort())
      out[k] = sortKeys((v as Record<string, unknown>)[k], keepOrder, keepOrder.has(k));
    return out;
  }
  return v;
}
