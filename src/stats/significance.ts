// The tests behind a speed label: Mann-Whitney U on raw samples, Student's t on log process medians.
// Ranks, the t statistic and the distribution functions come from simple-statistics and jstat; what
// is written here (exact U distribution, tie correction) is checked against scipy in test/compare.
import jStat from 'jstat';
import { median, tTestTwoSample, wilcoxonRankSum } from 'simple-statistics';

/** A Mann-Whitney U test result: U of the first sample, two-sided p-value, and how p was computed. */
export interface MannWhitney {
  u: number;
  p: number;
  method: 'exact' | 'asymptotic';
}

/** Student's two-sample t-test result (pooled variance), two-sided. */
export interface TTest {
  t: number;
  df: number;
  p: number;
}

/**
 * Two-sided Mann-Whitney U test of `x` against `y`, as scipy.stats.mannwhitneyu(x, y) with its
 * defaults (method 'auto', continuity correction): exact when a sample has at most 8 values and there
 * are no ties, else the normal approximation with tie correction. One difference: the exact
 * distribution is used only while its counts fit exactly in a double (C(n1+n2, n1) <= 2^53).
 */
export function mannWhitney(x: readonly number[], y: readonly number[]): MannWhitney {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new RangeError('mannWhitney: both samples need at least one value');
  const u1 = wilcoxonRankSum(x, y) - (n1 * (n1 + 1)) / 2;
  const u = Math.max(u1, n1 * n2 - u1);
  const ties = tieSizes([...x, ...y]);
  if ((n1 <= 8 || n2 <= 8) && ties.length === 0) {
    const counts = uCounts(Math.min(n1, n2), Math.max(n1, n2));
    if (counts) {
      let total = 0;
      let upper = 0;
      for (let k = 0; k < counts.length; k++) {
        total += counts[k];
        if (k >= u) upper += counts[k];
      }
      return { u: u1, p: Math.min(1, (2 * upper) / total), method: 'exact' };
    }
  }
  const n = n1 + n2;
  const tieTerm = ties.reduce((s, t) => s + (t * t * t - t), 0);
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1))));
  if (!(sd > 0)) return { u: u1, p: 1, method: 'asymptotic' };
  const z = (u - (n1 * n2) / 2 - 0.5) / sd;
  return { u: u1, p: Math.min(1, jStat.erfc(z / Math.SQRT2)), method: 'asymptotic' };
}

/** Sizes of the groups of equal values (only groups of two or more). */
function tieSizes(values: number[]): number[] {
  const sorted = Float64Array.from(values).sort();
  const sizes: number[] = [];
  let run = 1;
  for (let i = 1; i <= sorted.length; i++) {
    if (i < sorted.length && sorted[i] === sorted[i - 1]) run++;
    else {
      if (run > 1) sizes.push(run);
      run = 1;
    }
  }
  return sizes;
}

/**
 * How many of the C(m+n, m) orderings give each U = 0..m*n, when there are no ties: the coefficients
 * of the Gaussian binomial [m+n choose m]_q, built as the product over j of (1 - q^(n+j)) / (1 - q^j).
 * Null when the counts would not be exact in doubles.
 */
export function uCounts(m: number, n: number): number[] | null {
  let total = 1;
  for (let j = 1; j <= m; j++) total = (total * (n + j)) / j;
  if (total > Number.MAX_SAFE_INTEGER / 2) return null;
  let poly = [1];
  for (let j = 1; j <= m; j++) {
    const k = n + j;
    const times = new Array<number>(poly.length + k).fill(0);
    for (let i = 0; i < poly.length; i++) {
      times[i] += poly[i];
      times[i + k] -= poly[i];
    }
    const quotient = new Array<number>(times.length - j).fill(0);
    for (let i = 0; i < quotient.length; i++) quotient[i] = times[i] + (i >= j ? quotient[i - j] : 0);
    poly = quotient;
  }
  return poly;
}

/**
 * Student's two-sample t-test (pooled variance, two-sided) of mean(y) - mean(x). Null when there are
 * no degrees of freedom. Zero variance in both samples gives p = 0 when the means differ, else 1.
 */
export function studentT(x: readonly number[], y: readonly number[]): TTest | null {
  const df = x.length + y.length - 2;
  if (x.length < 1 || y.length < 1 || df < 1) return null;
  const t = tTestTwoSample(y, x) ?? Number.NaN;
  if (Number.isNaN(t)) return { t: 0, df, p: 1 };
  if (!Number.isFinite(t)) return { t, df, p: 0 };
  return { t, df, p: Math.min(1, 2 * jStat.studentt.cdf(-Math.abs(t), df)) };
}

/** Student's t-test on the logarithms of per-process medians: the process is the unit of replication. */
export function processTest(before: readonly number[], after: readonly number[]): TTest | null {
  if (before.length < 2 || after.length < 2) return null;
  return studentT(before.map(Math.log), after.map(Math.log));
}

/** The median of each non-empty process's samples. */
export function processMedians(samples: readonly (readonly number[])[]): number[] {
  return samples.filter((s) => s.length > 0).map((s) => median(s as number[]));
}
