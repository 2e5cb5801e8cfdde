// Stable JSON: sorted keys, two-space indent, trailing newline (results files diff cleanly).

/** Serialises with object keys sorted at every level. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value), null, 1) + '\n';
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as object).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}
