// The speed rule: one cell's before/after numbers, interval, tests and label (docs/compare.md).
import { median } from 'simple-statistics';
import type { CellResult } from '../results/model.ts';
import { bootstrapRatio } from '../stats/bootstrap.ts';
import { pValue } from './format.ts';
import type { CompareSettings, Interval, SpeedComparison, SpeedLabel } from './model.ts';
import { fnv1a, mulberry32 } from '../util/prng.ts';
import { mannWhitney, processMedians, processTest, type TTest } from '../stats/significance.ts';

/** What the rule needs besides the two cells. */
export interface SpeedContext {
  /** Noise threshold as a fraction: the larger of --threshold and the subject's A/A noise. */
  threshold: number;
  resamples: number;
  confidence: number;
  /** Significance level of the process-level t-test. */
  alpha: number;
  seed: number;
  /** Fewest processes a side needs for a label. */
  minProcesses: number;
}

/** The rule's context from compare's settings, at a subject's noise threshold. */
export function speedContext(s: CompareSettings, threshold: number): SpeedContext {
  return {
    threshold,
    resamples: s.resamples,
    confidence: s.confidence,
    alpha: s.alpha,
    seed: s.seed,
    minProcesses: s.min_processes,
  };
}

/** Compares the speed of two measured cells (both status ok). */
export function compareSpeed(before: CellResult, after: CellResult, ctx: SpeedContext): SpeedComparison {
  const rawB = rawSamples(before);
  const rawA = rawSamples(after);
  if (rawB.length >= ctx.minProcesses && rawA.length >= ctx.minProcesses)
    return bootstrapRule(before.id, rawB, rawA, ctx);
  const rangeB = rangeOf(before);
  const rangeA = rangeOf(after);
  const missing =
    rawB.length === 0 && rawA.length === 0
      ? 'either file'
      : rawB.length === 0
        ? 'before'
        : rawA.length === 0
          ? 'after'
          : null;
  if (rangeB && rangeA && rangeB.processes >= ctx.minProcesses && rangeA.processes >= ctx.minProcesses) {
    return rangeRule(
      rangeB,
      rangeA,
      missing ? `no raw samples in ${missing}` : `fewer than ${ctx.minProcesses} processes with raw samples`,
      ctx,
    );
  }
  const counts = {
    before: Math.max(rawB.length, rangeB?.processes ?? 0),
    after: Math.max(rawA.length, rangeA?.processes ?? 0),
  };
  const short = counts.before < ctx.minProcesses ? 'before' : counts.after < ctx.minProcesses ? 'after' : null;
  const why = short
    ? `${short} has ${counts[short]} process(es) with timings; ${ctx.minProcesses} are needed to see the between-process noise`
    : 'no raw samples and no process range';
  return unavailable(why, ctx.threshold, before.median_ms, after.median_ms);
}

/** A label-less speed comparison; the medians are the cells' own, null for a side without one. */
export function unavailable(
  why: string,
  threshold: number,
  before_ms: number | null,
  after_ms: number | null,
): SpeedComparison {
  const ratio = before_ms && after_ms ? after_ms / before_ms : null;
  return {
    label: 'unavailable',
    basis: 'none',
    why,
    before_ms,
    after_ms,
    ratio,
    interval: null,
    threshold,
    process_test: null,
    mann_whitney: null,
  };
}

function bootstrapRule(id: string, rawB: number[][], rawA: number[][], ctx: SpeedContext): SpeedComparison {
  const medB = processMedians(rawB);
  const medA = processMedians(rawA);
  const before_ms = median(medB);
  const after_ms = median(medA);
  const ci = bootstrapRatio(rawB, rawA, {
    resamples: ctx.resamples,
    confidence: ctx.confidence,
    random: mulberry32((fnv1a(id) ^ ctx.seed) >>> 0),
  });
  const interval: Interval = { ...ci, kind: 'bootstrap95' };
  const test = processTest(medB, medA);
  const mw = mannWhitney(rawA.flat(), rawB.flat());
  return {
    ...judge(interval, test, ctx),
    basis: 'bootstrap',
    before_ms,
    after_ms,
    ratio: after_ms / before_ms,
    geometric_ratio: geometricRatio(medB, medA),
    interval,
    threshold: ctx.threshold,
    process_test: test,
    mann_whitney: mw,
  };
}

function rangeRule(b: Range, a: Range, because: string, ctx: SpeedContext): SpeedComparison {
  const interval: Interval = { low: a.min / b.max, high: a.max / b.min, kind: 'range' };
  const test = b.medians && a.medians ? processTest(b.medians, a.medians) : null;
  const verdict = judge(interval, test, ctx);
  return {
    ...verdict,
    why: `range rule (${because}): ${verdict.why}`,
    basis: 'range',
    before_ms: b.median,
    after_ms: a.median,
    ratio: a.median / b.median,
    geometric_ratio: b.medians && a.medians ? geometricRatio(b.medians, a.medians) : null,
    interval,
    threshold: ctx.threshold,
    process_test: test,
    mann_whitney: null,
  };
}

/**
 * The label: faster or slower only when the whole interval lies beyond the noise band
 * [1 - threshold, 1 + threshold] and the process-level t-test, where it can be run, rejects equal
 * medians at alpha. Everything else is within noise.
 */
export function judge(
  interval: Interval,
  test: TTest | null,
  ctx: SpeedContext,
): Pick<SpeedComparison, 'label' | 'why'> {
  const name =
    interval.kind === 'bootstrap95'
      ? `95% CI ${interval.low.toFixed(3)}-${interval.high.toFixed(3)}`
      : `range ${interval.low.toFixed(3)}-${interval.high.toFixed(3)}`;
  return judgeBand(name, interval, test, 'the process-level t-test', ctx.threshold, ctx.alpha);
}

/**
 * The band rule itself, for a cell or a tool (src/compare/tools.ts): faster or slower when `interval`
 * (after/before, named `name` in the sentence) lies beyond [1 - threshold, 1 + threshold] and `test`,
 * when there is one, gives p below alpha; within noise otherwise.
 */
export function judgeBand(
  name: string,
  interval: { low: number; high: number },
  test: { p: number } | null,
  testName: string,
  threshold: number,
  alpha: number,
): { label: SpeedLabel; why: string } {
  const pct = (threshold * 100).toFixed(1);
  const side = interval.low > 1 + threshold ? 'slower' : interval.high < 1 - threshold ? 'faster' : null;
  if (!side) return { label: 'within_noise', why: `${name} reaches into the noise band ±${pct}%` };
  const where = side === 'slower' ? `above 1 + ${pct}%` : `below 1 - ${pct}%`;
  if (test && !(test.p < alpha))
    return {
      label: 'within_noise',
      why: `${name} lies ${where}, but ${testName} gives p ${pStated(test.p)} (not below ${alpha})`,
    };
  return { label: side, why: `${name} lies ${where}${test ? ` and ${testName} gives p ${pStated(test.p)}` : ''}` };
}

interface Range {
  min: number;
  max: number;
  median: number;
  processes: number;
  /** The per-process medians, when they can be recovered. */
  medians: number[] | null;
}

/** The process-median range of a cell, from raw samples, per-process stats, or the file's min/median/max. */
function rangeOf(c: CellResult): Range | null {
  const raw = rawSamples(c);
  const fromProcesses =
    raw.length > 0
      ? processMedians(raw)
      : c.per_process && c.per_process.length > 0
        ? c.per_process.map((p) => p.median_ms)
        : null;
  if (fromProcesses?.every(Number.isFinite)) {
    return {
      min: Math.min(...fromProcesses),
      max: Math.max(...fromProcesses),
      median: median(fromProcesses),
      processes: fromProcesses.length,
      medians: fromProcesses,
    };
  }
  if (c.min_ms === null || c.max_ms === null || c.median_ms === null || !c.processes) return null;
  // With three processes, min, median and max are the three per-process medians (the seed layout's case).
  const medians = c.processes === 3 ? [c.min_ms, c.median_ms, c.max_ms] : null;
  return { min: c.min_ms, max: c.max_ms, median: c.median_ms, processes: c.processes, medians };
}

/** The cell's non-empty per-process raw samples. */
function rawSamples(c: CellResult): number[][] {
  return (c.samples_ms ?? []).filter(
    (s) => Array.isArray(s) && s.length > 0 && s.every((v) => typeof v === 'number' && Number.isFinite(v) && v > 0),
  );
}

/** after/before of the geometric means of two sides' process medians. */
function geometricRatio(before: readonly number[], after: readonly number[]): number {
  const logMean = (xs: readonly number[]) => xs.reduce((a, x) => a + Math.log(x), 0) / xs.length;
  return Math.exp(logMean(after) - logMean(before));
}

/** "= 0.022" or "< 0.001": a p-value inside a sentence. */
function pStated(p: number): string {
  const v = pValue(p);
  return v.startsWith('<') ? `< ${v.slice(1)}` : `= ${v}`;
}
