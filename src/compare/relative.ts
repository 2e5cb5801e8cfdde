// Compare across runs: a tool's change judged on its ratio to its baseline within each run, which cancels
// what is common to a run. Where a cell was timed against its baseline in its own processes (paired,
// docs/protocol.md), its ratio is taken pair by pair inside each process; otherwise it is divided by the
// same group's baseline cell (`raw`, else the subject's A/A reference tool) of the same run.
import type { CellResult } from '../results/model.ts';
import { pairedSamples } from '../results/paired.ts';
import type { SpeedComparison } from './model.ts';
import { compareSpeed, judge, type SpeedContext } from './speed.ts';
import { quantile975 } from '../stats/paired.ts';
import jStat from 'jstat';
import { processMedians } from '../stats/significance.ts';

/** The tool a cell is divided by when no `raw` cell is in its group: the subject's A/A reference tool. */
export type BaselineTools = (subject: string) => string | null;

/**
 * The baseline of a cell in its own run: the ok cell of the same group, contract and subject whose tool
 * is `raw`, else the A/A reference tool; null when neither was measured, or the cell is the baseline.
 */
export function baselineOf(
  cell: CellResult,
  byId: Map<string, CellResult>,
  fallback: BaselineTools,
): CellResult | null {
  for (const tool of ['raw', fallback(cell.subject)]) {
    if (!tool) continue;
    const b = byId.get(`${cell.group}/${cell.contract}/${tool}/${cell.subject}`);
    if (b && b.status === 'ok') return b.id === cell.id ? null : b;
  }
  return null;
}

/**
 * The tool's samples divided by the baseline's, process by process: process i of the tool over the
 * median of process i of the baseline. Under the interleaved schedule process i of every cell runs in
 * round i, so a slow minute divides out as well as a slow run; under any schedule the pairs are
 * independent, so the process-level test stays valid. Processes beyond the shorter side are dropped.
 */
export function relativeSamples(tool: number[][], baseline: number[][]): number[][] {
  const base = processMedians(baseline);
  const n = Math.min(tool.length, base.length);
  return Array.from({ length: n }, (_, i) => tool[i].map((v) => v / base[i]));
}

/** One side of a ratio comparison: its relative samples per process, and whether they are paired. */
export interface RelativeSide {
  samples: number[][];
  paired: boolean;
}

/** A cell's relative samples in its run: paired where it has them, else divided by `base` (null without either). */
export function relativeSide(c: CellResult, base: CellResult | null): RelativeSide | null {
  const paired = pairedSamples(c);
  if (paired) return { samples: paired, paired: true };
  return base ? { samples: relativeSamples(raw(c), raw(base)), paired: false } : null;
}

/**
 * The ratio rule: the speed rule (bootstrap interval beyond the noise band and process-level t-test)
 * applied to the relative samples of each side. `before_ms`/`after_ms` stay the cells' own medians;
 * `ratio` and the interval are of the change relative to the baseline.
 */
export function compareRelative(
  pair: { before: CellResult; after: CellResult },
  sides: { before: RelativeSide; after: RelativeSide },
  baseline: string,
  ctx: SpeedContext,
): SpeedComparison {
  const rel = (c: CellResult, side: RelativeSide): CellResult => ({
    ...c,
    samples_ms: side.samples,
    per_process: null,
    min_ms: null,
    max_ms: null,
    median_ms: null,
    processes: null,
  });
  const s = compareSpeed(rel(pair.before, sides.before), rel(pair.after, sides.after), ctx);
  const how =
    sides.before.paired && sides.after.paired
      ? 'paired'
      : sides.before.paired
        ? 'paired before, unpaired after'
        : sides.after.paired
          ? 'unpaired before, paired after'
          : 'unpaired';
  return {
    ...s,
    why: `relative to ${baseline} (${how}): ${s.why}`,
    before_ms: pair.before.median_ms,
    after_ms: pair.after.median_ms,
    paired: how,
  };
}

/**
 * A ratio comparison of two runs with their run-to-run components added (src/stats/between-run.ts): the
 * next run of unchanged code differs from this one by about that much, so a change must stand out from it.
 * Each side of the interval and the process-level t statistic take `variance` (both runs' components
 * summed, on the log scale) on top of their own, and the label is judged again.
 */
export function withBetweenRun(s: SpeedComparison, variance: number, df: number, ctx: SpeedContext): SpeedComparison {
  if (!(variance > 0) || s.label === 'unavailable' || !s.interval || !s.ratio || !(s.ratio > 0)) return s;
  const centre = Math.log(s.ratio);
  const z = quantile975(df);
  const widen = (h: number) => Math.sqrt(h * h + z * z * variance);
  const interval = {
    ...s.interval,
    low: Math.exp(centre - widen(centre - Math.log(s.interval.low))),
    high: Math.exp(centre + widen(Math.log(s.interval.high) - centre)),
  };
  let test = s.process_test;
  if (test && test.t !== 0 && Number.isFinite(test.t)) {
    const change = Math.log(s.geometric_ratio ?? s.ratio);
    const se = Math.abs(change / test.t);
    const t = change / Math.sqrt(se * se + variance);
    test = { t, df: test.df, p: 2 * (1 - jStat.studentt.cdf(Math.abs(t), test.df)) };
  }
  const verdict = judge(interval, test, ctx);
  const sd = Math.sqrt(variance);
  return {
    ...s,
    ...verdict,
    why: `${s.why.split(': ')[0]}: ${verdict.why} (with ±${(100 * (Math.exp(z * sd) - 1)).toFixed(1)}% for what separates two runs)`,
    interval,
    process_test: test,
    between_run: sd,
  };
}

function raw(c: CellResult): number[][] {
  return (c.samples_ms ?? []).filter(
    (s) => Array.isArray(s) && s.length > 0 && s.every((v) => typeof v === 'number' && Number.isFinite(v) && v > 0),
  );
}
