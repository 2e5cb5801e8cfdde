// Small figures for the bench (inputs are never modified); medians and quantiles come from src/stats.

/** Sum of a list. */
export function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

/** Largest relative difference |a - b| / min(a, b) over the pairs. */
export function maxRel(pairs: [number, number][]): number {
  return Math.max(...pairs.map(([a, b]) => Math.abs(a - b) / Math.min(a, b)));
}
