// Small statistics for the bench (sorted copies; inputs are never modified).

/** Median of a non-empty list. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Sum of a list. */
export function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Largest relative difference |a - b| / min(a, b) over the pairs. */
export function maxRel(pairs: [number, number][]): number {
  return Math.max(...pairs.map(([a, b]) => Math.abs(a - b) / Math.min(a, b)));
}
