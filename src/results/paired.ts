// Paired figures of a cell (docs/protocol.md, "Pairing"): per process, the tool against its baseline timed
// in alternation after the tool's import (the paired ratio), and the import tax (the baseline after the
// import over the baseline before it); per cell, each over processes with a 95% interval. Pure.
import jStat from 'jstat';
import { median } from './stats.ts';
import type { CellWork, Witnesses } from './model.ts';
import { moderatedLogSpread, pooledSpread, type Pool } from '../run/precision.ts';

/** What one paired process measured, with the figures derived from it. */
export interface PairedProcess {
  /** The process's position in the cell's `samples_ms` (whose list holds the tool's samples of each pair). */
  index: number;
  /** The paired ratio (pairEstimate): tool / baseline, both timed in alternation after the import. */
  ratio: number;
  /** Import tax: median baseline after the import / median baseline before it. */
  tax: number;
  pairs: number;
  /** Raw data, so that compare and history can recompute: the baseline's samples after the import (parallel
   * to the cell's samples_ms of this process), the order of each pair, and the block before the import. */
  seed: number;
  baseline_ms: number[];
  tool_first: boolean[];
  before_ms: number[];
}

/** A ratio and its 95% interval. */
export interface RatioCI {
  ratio: number;
  ci95: [number, number];
}

/** The published ratio: the paired ratio, times the cell's import tax where the run shows the tool has one. */
export interface Published extends RatioCI {
  /** The cell's import tax it includes; null when the tool's tax over all its processes is not shown to be above 1. */
  tax: number | null;
}

/**
 * A cell's paired figures (results.json `paired`): the paired ratio (the tool against its baseline timed in
 * alternation in the same processes, after the tool's import) with its 95% interval, and the published
 * ratio every "x raw" shows, which also carries the tool's import tax when the run shows one
 * (docs/protocol.md says why).
 */
export interface PairedFigures extends RatioCI {
  /** Pairs timed after the import, over all processes. */
  pairs: number;
  /** The baseline tool (its adapter's function for the same contract, on its own copy of the model). */
  baseline: string;
  published: Published;
  processes: PairedProcess[];
}

/** What a process result holds about pairing (schemas/result.schema.json `paired`). */
export interface PairedRecord {
  baseline: string;
  seed: number;
  unpaired: string | null;
  baseline_ms?: number[];
  baseline_gc_ms?: number[];
  tool_first?: boolean[];
  /** The block before the import; `work`: the baseline's witness call after it (absent in older results). */
  before?: { baseline_ms: number[]; baseline_gc_ms: number[]; stopped_by: string; work?: { witnesses: Witnesses; required: CellWork['required']; differs: string[] } | null };
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

/** A process's paired figures from its timing and `paired` record; null when it did not pair. */
export function pairedProcess(index: number, samples: readonly number[], p: PairedRecord | null | undefined): PairedProcess | null {
  if (!p || p.unpaired !== null || !p.baseline_ms || !p.before) return null;
  const ratio = pairEstimate(samples, p.baseline_ms);
  const base = p.before.baseline_ms;
  if (ratio === null || base.length === 0 || p.baseline_ms.length === 0) return null;
  const tax = median(p.baseline_ms) / median(base);
  return {
    index, ratio, tax, pairs: Math.min(samples.length, p.baseline_ms.length),
    seed: p.seed, baseline_ms: p.baseline_ms, tool_first: p.tool_first ?? [], before_ms: base,
  };
}

/**
 * The 95% interval of the geometric mean of per-process values: Student's t on their logarithms, the
 * variance moderated towards the run's `pool` as the precision rule does (src/run/precision.ts,
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

/** The run's pools of paired figures: the spread between processes of one cell, typical over the run's cells. */
export interface PairedPools {
  ratio: Pool | null;
  tax: Pool | null;
}

/** The pools from every paired cell's processes (pooledSpread: the median over cells of their variances). */
export function pairedPools(cells: readonly (readonly PairedProcess[])[]): PairedPools {
  const of = (f: (p: PairedProcess) => number) => pooledSpread(cells.map((ps) => ps.map(f)));
  return { ratio: of((p) => p.ratio), tax: of((p) => p.tax) };
}

/**
 * A cell's paired figures and import tax from its paired processes; null without any. The published
 * ratio starts as the paired ratio; withToolTax (src/results/published.ts) adds the tool's tax.
 */
export function pairedFigures(processes: PairedProcess[], baseline: string, pools: PairedPools): { paired: PairedFigures; import_tax: RatioCI } | null {
  const ratio = logInterval(processes.map((p) => p.ratio), pools.ratio);
  const tax = logInterval(processes.map((p) => p.tax), pools.tax);
  if (!ratio || !tax) return null;
  const pairs = processes.reduce((a, p) => a + p.pairs, 0);
  return { paired: { ...ratio, pairs, baseline, published: { ...ratio, tax: null }, processes }, import_tax: tax };
}

/**
 * A paired cell's relative samples, what compare and history judge (docs/compare.md): per process, each
 * pair's ratio, tool / baseline after the import, so that a process's median is its paired ratio. Null for
 * a cell without paired processes.
 */
export function pairedSamples(c: { samples_ms: number[][] | null; paired?: PairedFigures | null }): number[][] | null {
  const ps = c.paired?.processes;
  if (!ps || ps.length === 0 || !c.samples_ms) return null;
  const out = ps.flatMap((p) => {
    const tool = c.samples_ms![p.index];
    const ratios = tool ? pairRatios(tool, p.baseline_ms) : [];
    return ratios.length > 0 ? [ratios] : [];
  });
  return out.length > 0 ? out : null;
}
