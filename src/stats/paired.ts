// Estimators of paired timing (docs/protocol.md, "Pairing"): the ratio of each pair, the Hodges-Lehmann
// estimate of a process's paired ratio, and the 95% interval of per-process values on their logarithms
// with the moderated t. Pure; src/results/paired.ts shapes them into a cell's figures.
import jStat from 'jstat';
import { median } from './summary.ts';
import { moderatedLogSpread, type Pool } from './spread.ts';

/** A ratio and its 95% interval. */
export interface RatioCI {
  ratio: number;
  ci95: [number, number];
}

/** The ratio of each pair: first / second, index by index (pairs beyond the shorter side dropped). */
export function pairRatios(first: readonly number[], second: readonly number[]): number[] {
  const n = Math.min(first.length, second.length);
  return Array.from({ length: n }, (_, j) => first[j] / second[j]).filter((r) => Number.isFinite(r) && r > 0);
}

/**
 * The per-process estimator of a paired ratio: the Hodges-Lehmann estimate of the per-pair log ratios
 * (the median of the means of every two of them, each with itself included), as a ratio. A pair's two
 * calls share what moves a process at that moment, so each ratio is already free of it. On this machine
 * (docs/protocol.md, "The estimator") it varied 15% less between processes of one cell than the median of
 * the ratios, as little as their mean, and like the median one slow call cannot move it far (it ignores
 * up to 29% of the pairs).
 */
export function pairEstimate(first: readonly number[], second: readonly number[]): number | null {
  const logs = pairRatios(first, second).map(Math.log);
  if (logs.length === 0) return null;
  const walsh: number[] = [];
  for (let i = 0; i < logs.length; i++) for (let j = i; j < logs.length; j++) walsh.push((logs[i] + logs[j]) / 2);
  return Math.exp(median(walsh));
}

/**
 * What is known of the logarithm of a ratio: its estimate, the variance of that estimate, and the degrees of
 * freedom of that variance (Infinity: known exactly). Intervals are built from it at the end, so that
 * estimates can be combined first (a difference, an added component) without losing their uncertainty.
 */
export interface LogEstimate {
  mean: number;
  /** Variance of `mean` (not of one value). */
  variance: number;
  df: number;
}

/**
 * The geometric mean of per-process values as a LogEstimate: the mean of their logarithms, with the
 * variance of their logarithms moderated towards the run's `pool` (src/stats/spread.ts, moderatedLogSpread)
 * divided by their count. Processes are the unit of replication: a process's ratio is free of its offset,
 * but what its pairs shared (the copies' places in memory, the tool's state) varies between processes.
 * Null without a positive finite value.
 */
export function logEstimate(values: readonly number[], pool: Pool | null): LogEstimate | null {
  const ok = values.filter((v) => Number.isFinite(v) && v > 0);
  if (ok.length === 0) return null;
  const { mean, variance, df } = moderatedLogSpread(ok, pool);
  return { mean, variance: variance / ok.length, df };
}

/** a - b of two independent estimates: variances add, degrees of freedom by Welch-Satterthwaite. */
export function difference(a: LogEstimate, b: LogEstimate): LogEstimate {
  return { mean: a.mean - b.mean, ...combined([a, b]) };
}

/** The mean of k independent estimates (each weighing alike), its variance sum / k^2, its df by Satterthwaite. */
export function meanOf(estimates: readonly LogEstimate[]): LogEstimate | null {
  if (estimates.length === 0) return null;
  const k = estimates.length;
  const c = combined(estimates);
  return { mean: estimates.reduce((x, e) => x + e.mean, 0) / k, variance: c.variance / (k * k), df: c.df };
}

/**
 * An estimate with one more independent component of variance `variance` known on `df` degrees of freedom,
 * on Satterthwaite's degrees of freedom. A component known better than the estimate raises the df, and t
 * can then shrink by more than the variance grows; an interval that holds one more source of error must
 * not come out narrower than the one without it, so where it would, the df is lowered until the interval
 * is exactly as wide as the estimate's own (the wider of the two intervals, continuous in both inputs).
 */
export function withComponent(e: LogEstimate, variance: number, df: number): LogEstimate {
  const c = combined([e, { mean: 0, variance, df }]);
  const width = (d: number) => quantile975(d) * Math.sqrt(c.variance);
  const own = quantile975(e.df) * Math.sqrt(e.variance);
  if (!(c.df > e.df) || !Number.isFinite(own) || width(c.df) >= own)
    return { mean: e.mean, variance: c.variance, df: c.df };
  // width(d) falls as d grows; width(e.df) >= own since the variance only grew. Bisect on the log of d.
  let lo = Math.log(e.df);
  let hi = Math.log(Math.min(c.df, 1e6));
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (width(Math.exp(mid)) >= own) lo = mid;
    else hi = mid;
  }
  return { mean: e.mean, variance: c.variance, df: Math.exp(lo) };
}

/** Summed variances, with the Welch-Satterthwaite degrees of freedom of the sum. */
function combined(parts: readonly LogEstimate[]): { variance: number; df: number } {
  const variance = parts.reduce((x, p) => x + p.variance, 0);
  const denominator = parts.reduce(
    (x, p) => x + (Number.isFinite(p.df) && p.df > 0 ? (p.variance * p.variance) / p.df : p.df > 0 ? 0 : Infinity),
    0,
  );
  const df = !(variance > 0)
    ? Math.min(...parts.map((p) => p.df))
    : denominator === 0
      ? Infinity
      : (variance * variance) / denominator;
  return { variance, df };
}

/** Student's t 0.975 quantile on `df` degrees of freedom (the normal's beyond 1e5, where jstat's drifts below it). */
export function quantile975(df: number): number {
  return df < 1e5 ? jStat.studentt.inv(0.975, df) : jStat.normal.inv(0.975, 0, 1);
}

/** The 95% interval of an estimate (Student's t on its df; the normal where df is Infinity); [0, Infinity] when it has none. */
export function intervalOf(e: LogEstimate): RatioCI {
  const ratio = Math.exp(e.mean);
  if (!(e.df > 0) || !Number.isFinite(e.variance)) return { ratio, ci95: [0, Infinity] };
  const h = quantile975(e.df) * Math.sqrt(e.variance);
  return { ratio, ci95: [Math.exp(e.mean - h), Math.exp(e.mean + h)] };
}

/**
 * The 95% interval of the geometric mean of per-process values (logEstimate, then intervalOf).
 */
export function logInterval(values: readonly number[], pool: Pool | null): RatioCI | null {
  const e = logEstimate(values, pool);
  return e ? intervalOf(e) : null;
}

/**
 * The log estimate an interval was made from, given its ratio, 95% interval and degrees of freedom (as
 * results files record them); null without degrees of freedom or with an unbounded interval.
 */
export function estimateFromInterval(p: { ratio: number; ci95: [number, number]; df?: number }): LogEstimate | null {
  if (p.df === undefined || !(p.df > 0) || !(p.ci95[1] < Infinity) || !(p.ci95[0] > 0)) return null;
  const h = Math.log(p.ci95[1] / p.ratio);
  return { mean: Math.log(p.ratio), variance: (h / quantile975(p.df)) ** 2, df: p.df };
}
