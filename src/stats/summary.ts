// Descriptive statistics of raw samples (pure).

/** The q-quantile of sorted values, linear interpolation between closest ranks (numpy's default). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Median of unsorted values. */
export function median(values: number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** median, min, max, IQR (q3 - q1) and n of unsorted values. */
export function summary(values: number[]): { median: number; min: number; max: number; iqr: number; n: number } {
  const s = [...values].sort((a, b) => a - b);
  return {
    median: quantile(s, 0.5),
    min: s[0],
    max: s[s.length - 1],
    iqr: quantile(s, 0.75) - quantile(s, 0.25),
    n: s.length,
  };
}
