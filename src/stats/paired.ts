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
 * The 95% interval of the geometric mean of per-process values: Student's t on their logarithms, the
 * variance moderated towards the run's `pool` as the precision rule does (src/stats/spread.ts,
 * moderatedLogSpread). Processes are the unit of replication: a process's ratio is free of its offset,
 * but what its pairs shared (the copies' places in memory, the tool's state) varies between processes.
 */
export function logInterval(values: readonly number[], pool: Pool | null): RatioCI | null {
  const ok = values.filter((v) => Number.isFinite(v) && v > 0);
  if (ok.length === 0) return null;
  const { mean, variance, df } = moderatedLogSpread(ok, pool);
  const ratio = Math.exp(mean);
  if (!(df > 0) || !Number.isFinite(variance)) return { ratio, ci95: [0, Infinity] };
  const h = jStat.studentt.inv(0.975, df) * Math.sqrt(variance / ok.length);
  return { ratio, ci95: [Math.exp(mean - h), Math.exp(mean + h)] };
}
