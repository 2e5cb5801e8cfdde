// How a time grows with a swept value: the exponent of a power law t ~ c * x^k fitted on log-log points, with
// a 95% interval, and what the tool's overhead exponent says against the forward's. Pure.
import { linearRegression } from 'simple-statistics';
import { quantile975 } from './paired.ts';

/** One swept value and the times observed there (a cell's per-process medians, ms; all > 0). */
export interface GrowthPoint {
  x: number;
  times: readonly number[];
}

/** A fitted exponent: the log-log slope, its 95% interval, and what it was fitted on. */
export interface GrowthFit {
  exponent: number;
  /** The slope's 95% t interval; null with fewer than three swept values (`why` says so). */
  ci95: [number, number] | null;
  /** Swept values the fit used. */
  points: number;
  /** Observations (processes over all points) the fit used. */
  observations: number;
  /** Why there is no interval; null when there is one. */
  why: string | null;
}

/**
 * The exponent k of t ~ c * x^k: the ordinary least squares slope of log t on log x, every observation of
 * every point one row (simple-statistics' linearRegression), and its 95% interval slope +- t(0.975, N - 2) * se,
 * se^2 = residual variance / sum (log x - mean)^2. The residuals hold both the spread between a point's
 * processes and any departure from a straight log-log line, so an interval is wide when the processes
 * disagree or the growth is not a power law, and narrow only when neither. Two swept values give the slope
 * through them, but no interval: two points always lie on a line, so they cannot show that the growth is one.
 * Null without two distinct positive values of x with a positive time.
 */
export function fitGrowth(points: readonly GrowthPoint[]): GrowthFit | null {
  const rows = points.flatMap((p) =>
    p.x > 0 ? p.times.filter((t) => t > 0 && Number.isFinite(t)).map((t) => [Math.log(p.x), Math.log(t)]) : [],
  );
  const xs = new Set(rows.map((r) => r[0]));
  if (xs.size < 2) return null;
  const { m, b } = linearRegression(rows);
  const base = { exponent: m, points: xs.size, observations: rows.length };
  if (xs.size < 3)
    return { ...base, ci95: null, why: 'two swept values: a line through two points cannot show a power law' };
  const mean = rows.reduce((s, r) => s + r[0], 0) / rows.length;
  const sxx = rows.reduce((s, r) => s + (r[0] - mean) ** 2, 0);
  const residual = rows.reduce((s, r) => s + (r[1] - (m * r[0] + b)) ** 2, 0);
  const df = rows.length - 2;
  const h = quantile975(df) * Math.sqrt(residual / df / sxx);
  return { ...base, ci95: [m - h, m + h], why: null };
}

/**
 * What a tool's overhead does as the value grows, against the forward's own growth: `constant` (the overhead's
 * interval holds 0 and not the forward's exponent), `like the forward` (it holds the forward's exponent and
 * not 0), `faster` or `slower` than the forward (all of it above, or between 0 and, the forward's exponent),
 * `shrinks` (all of it below 0), `cannot tell` (it holds both, or there is no interval or no forward fit),
 * `none` (no overhead to fit: the tool is not above the forward at two or more values).
 */
export type GrowthVerdict = 'constant' | 'like the forward' | 'faster' | 'slower' | 'shrinks' | 'cannot tell' | 'none';

/** The verdict of an overhead's fit against the forward's fit. */
export function growthVerdict(forward: GrowthFit | null, overhead: GrowthFit | null): GrowthVerdict {
  if (!overhead) return 'none';
  if (!overhead.ci95 || !forward) return 'cannot tell';
  const [low, high] = overhead.ci95;
  const zero = low <= 0 && 0 <= high;
  const likeForward = low <= forward.exponent && forward.exponent <= high;
  if (zero && !likeForward) return 'constant';
  if (likeForward && !zero) return 'like the forward';
  if (zero || likeForward) return 'cannot tell';
  if (high < 0) return 'shrinks';
  return low > forward.exponent ? 'faster' : 'slower';
}
