// Step detection over a series of medians, after the idea of asv's step_detect.py: fit the series
// with piecewise-constant segments by minimising "distance to each segment's median + a penalty per
// segment", then call each boundary between segments a step. Pure; the rule is documented in docs/versions.md.
import { median } from '../stats/summary.ts';

/** One fitted segment: points [start, end) and their median. */
export interface Segment {
  start: number;
  end: number;
  value: number;
}

/** A change between two consecutive segments. */
export interface Step {
  /** Index of the first point after the step. */
  at: number;
  before: number;
  after: number;
  /** after / before - 1. */
  change: number;
}

/** What a series fit gives: its segments, its steps, and the noise and penalty used. */
export interface StepFit {
  segments: Segment[];
  steps: Step[];
  sigma: number;
  gamma: number;
}

/**
 * Robust noise of the series: 1.4826 x the median absolute successive difference / sqrt(2), a normal
 * sigma estimate that one step barely moves (as in asv). Floored at 0.5% of the median, so a series of
 * identical values does not make every later wobble a step.
 */
export function noiseOf(y: number[]): number {
  const floor = 0.005 * Math.abs(median(y));
  if (y.length < 3) return floor;
  const diffs = y.slice(1).map((v, i) => Math.abs(v - y[i]));
  return Math.max((1.4826 * median(diffs)) / Math.SQRT2, floor);
}

function l1Cost(y: number[], start: number, end: number): { cost: number; value: number } {
  const seg = y.slice(start, end);
  const value = median(seg);
  return { cost: seg.reduce((s, v) => s + Math.abs(v - value), 0), value };
}

/**
 * Exact optimal partition (dynamic programming, O(n^3) on a few hundred runs at most): minimises
 * sum over segments of sum |y - median(segment)| + gamma x (number of segments). Every segment but the
 * last has at least `minLength` points: one slow run between normal ones is an outlier, not two steps,
 * while the newest run alone may still start a step (it is the one a maintainer asks about).
 */
export function fitSegments(y: number[], gamma: number, minLength = 2): Segment[] {
  const n = y.length;
  if (n === 0) return [];
  const best = new Array<number>(n + 1).fill(Infinity);
  const from = new Array<number>(n + 1).fill(0);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    for (let start = 0; start < end; start++) {
      if (end < n && end - start < minLength) continue;
      const c = best[start] + l1Cost(y, start, end).cost + gamma;
      if (c < best[end]) {
        best[end] = c;
        from[end] = start;
      }
    }
  }
  const segments: Segment[] = [];
  for (let end = n; end > 0; end = from[end])
    segments.unshift({ start: from[end], end, value: l1Cost(y, from[end], end).value });
  return segments;
}

/** The penalty per segment: 3 sigma ln(n + 1), so a lone outlier does not pay for a segment of its own. */
export function penalty(sigma: number, n: number): number {
  return 3 * sigma * Math.log(n + 1);
}

/** Fits a series and lists its steps (oldest first). Missing points must be removed by the caller. */
export function detectSteps(y: number[]): StepFit {
  const sigma = noiseOf(y);
  const gamma = penalty(sigma, y.length);
  const segments = fitSegments(y, gamma);
  const steps = segments.slice(1).map((s, i) => {
    const before = segments[i].value;
    return { at: s.start, before, after: s.value, change: s.value / before - 1 };
  });
  return { segments, steps, sigma, gamma };
}
