// Spread between processes: the run's pool of process-to-process variance and the moderated t interval
// on log values (limma's moderated t, its prior fitted to the run's cells), used by the precision rule, the
// paired figures and compare's tool verdicts. Pure.
import digamma from '@stdlib/math-base-special-digamma';
import trigamma from '@stdlib/math-base-special-trigamma';
import jStat from 'jstat';
import { median } from './summary.ts';

/**
 * The run's spread between processes: how far two processes of one cell typically disagree in this run,
 * as a prior for every cell's variance of log values. Every cell of a run shares the machine and its drift,
 * so the run knows this far better than a cell's two or three processes do; but cells differ (a
 * Python-heavy tool's processes disagree more than the plain forward's), so how much the prior may weigh
 * is estimated too. The estimate is Smyth's (2004) empirical Bayes fit of a scaled inverse chi-square prior
 * to the cells' sample variances (limma's `fitFDist`, by moments of their logarithms): `variance` is the
 * prior's scale s0^2, `prior_df` its degrees of freedom d0, large when the cells agree with one another
 * and small when they do not. d0 is capped at the pooled cells' own degrees of freedom: a prior is never
 * worth more than the data it came from. Null below MIN_POOL_CELLS cells with two or more values.
 */
export interface Pool {
  variance: number;
  /** The prior's degrees of freedom d0: what the pool counts for in one cell's variance. */
  prior_df: number;
  /** Degrees of freedom behind it: the sum over the pooled cells. */
  df: number;
  cells: number;
}

export const MIN_POOL_CELLS = 5;

export function pooledSpread(cells: Iterable<readonly number[]>): Pool | null {
  const vs: number[] = [];
  const dfs: number[] = [];
  for (const values of cells) {
    if (values.length < 2 || values.some((m) => !(m > 0 && Number.isFinite(m)))) continue;
    const logs = values.map(Math.log);
    const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
    vs.push(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
    dfs.push(logs.length - 1);
  }
  if (vs.length < MIN_POOL_CELLS) return null;
  const total = dfs.reduce((x, y) => x + y, 0);
  const fit = fitPrior(vs, dfs);
  if (fit === null) return null;
  return { variance: fit.variance, prior_df: Math.min(fit.df, total), df: total, cells: vs.length };
}

/**
 * Smyth's moment estimate of the prior (s0^2, d0) from sample variances `vs` on `dfs` degrees of freedom:
 * log s^2 - digamma(d/2) + log(d/2) has mean log s0^2 - digamma(d0/2) + log(d0/2) and variance
 * trigamma(d/2) + trigamma(d0/2). Variances of exactly zero (two processes that agree to the last digit)
 * are raised to 1e-5 of the median, as limma does, so that their logarithm is finite. d0 is Infinity when the
 * cells scatter no more than their own degrees of freedom explain. Null when every variance is zero.
 */
export function fitPrior(vs: readonly number[], dfs: readonly number[]): { variance: number; df: number } | null {
  const positive = vs.filter((v) => v > 0);
  if (positive.length === 0) return null;
  const floor = 1e-5 * median(positive);
  const e = vs.map((v, i) => Math.log(Math.max(v, floor)) - digamma(dfs[i] / 2) + Math.log(dfs[i] / 2));
  const n = e.length;
  const mean = e.reduce((a, b) => a + b, 0) / n;
  const spread =
    e.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1) - dfs.reduce((a, d) => a + trigamma(d / 2), 0) / n;
  if (!(spread > 0)) return { variance: Math.exp(mean), df: Infinity };
  const df = 2 * trigammaInverse(spread);
  return { variance: Math.exp(mean + digamma(df / 2) - Math.log(df / 2)), df };
}

/** The x > 0 with trigamma(x) = y (Newton's method on 1/trigamma, as limma's trigammaInverse). */
export function trigammaInverse(y: number): number {
  if (y > 1e7) return 1 / Math.sqrt(y);
  if (y < 1e-6) return 1 / y;
  let x = 0.5 + 1 / y;
  for (let i = 0; i < 50; i++) {
    const t = trigamma(x);
    const step = (t * (1 - t / y)) / psi2(x);
    x += step;
    if (-step / x < 1e-8) break;
  }
  return x;
}

/** The derivative of trigamma, by a central difference (only Newton's step size depends on it). */
function psi2(x: number): number {
  const h = 1e-4 * x;
  return (trigamma(x + h) - trigamma(x - h)) / (2 * h);
}

/**
 * Relative half-width of the 95% interval of a cell's median from its process medians: Student's t
 * interval on their logarithms (processes are the unit of replication; between-process spread dominates
 * on a shared machine), as exp(t * sd / sqrt(p)) - 1. With the run's `pool`, the cell's variance is
 * moderated towards the pool's (moderatedLogSpread). Without a pool: the cell's own t interval, infinite
 * below 2 processes.
 */
export function processesHalfWidth(medians: readonly number[], pool: Pool | null = null): number {
  const p = medians.length;
  if (p < 2 || medians.some((m) => !(m > 0))) return Infinity;
  const { variance, df } = moderatedLogSpread(medians, pool);
  const t = jStat.studentt.inv(0.975, df);
  return Math.exp((t * Math.sqrt(variance)) / Math.sqrt(p)) - 1;
}

/**
 * The mean of the logarithms of `values` (positive) and their variance moderated towards `pool`, limma's
 * posterior variance: s^2 = (d0 * s0^2 + own sum of squares) / (d0 + n - 1) on d0 + n - 1 degrees of
 * freedom, with the pool's fitted s0^2 and d0 (pooledSpread); the values' own variance without a pool.
 * Shared by the precision rule, the paired figures (processes of a cell) and compare's tool verdicts
 * (cells of a tool).
 */
export function moderatedLogSpread(
  values: readonly number[],
  pool: Pool | null,
): { mean: number; variance: number; df: number; moderated: boolean } {
  const logs = values.map(Math.log);
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const ownSs = logs.reduce((a, b) => a + (b - mean) ** 2, 0);
  const d0 = pool ? pool.prior_df : 0;
  const df = d0 + logs.length - 1;
  return { mean, variance: df > 0 ? (d0 * (pool?.variance ?? 0) + ownSs) / df : Number.NaN, df, moderated: d0 > 0 };
}
