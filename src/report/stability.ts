// Whether a run's figures are stable enough to read, from the noise it measured itself, and what to do
// when they are not (pyperf warns "the result may be unstable" the same way). Pure.
import { runPool } from '../results/cell-stop.ts';
import type { Results } from '../results/model.ts';

/**
 * The bounds, from the noise campaign of docs/performance.md: seven runs of resnet18_cpu on this
 * project's shared 2-core machine with nothing else running showed A/A noise from 3.0% to 17.3%
 * (median 7.3%) and a spread between a cell's processes (sd of log process medians, pooled over the
 * run) from 2.4% to 7.1%. A run beyond the worst of those quiet runs (20% A/A, 10% spread) was
 * disturbed by something else on the machine, and its differences mean little.
 */
export const UNSTABLE_AA = 0.2;
export const UNSTABLE_SPREAD = 0.1;

/** A subject's A/A figure: the largest relative difference within its reference cell's A/A pairs. */
export interface AAFigure {
  subject: string;
  cell: string | null;
  pairs: number;
  value: number;
}

/** What the run says about its own noise. */
export interface Stability {
  aa: AAFigure[];
  /** The run's spread between processes; null with fewer than 5 cells of 2 or more processes. */
  spread: number | null;
  unstable: boolean;
  /** Why it is unstable, in words; empty when it is not. */
  reasons: string[];
}

/** The A/A figure of a subject of a results file (null when the run measured none). */
export function aaFigure(results: Results, subject: string): AAFigure | null {
  const aa = results.subjects[subject]?.meta?.aa_noise;
  if (!aa || aa.max_rel_diff === null) return null;
  return { subject, cell: aa.cell, pairs: aa.pairs, value: aa.max_rel_diff };
}

/** The run's noise against the bounds above. */
export function stabilityOf(results: Results): Stability {
  const aa = Object.keys(results.subjects)
    .map((s) => aaFigure(results, s))
    .filter((f): f is AAFigure => f !== null);
  const pool = runPool(results.cells);
  const spread = pool ? Math.sqrt(pool.variance) : null;
  const reasons: string[] = [];
  for (const f of aa) {
    if (f.value > UNSTABLE_AA)
      reasons.push(
        `A/A noise of ${f.subject} is ${pct(f.value)} (above ${pct(UNSTABLE_AA)}): differences below ${pct(f.value)} are noise`,
      );
  }
  if (spread !== null && spread > UNSTABLE_SPREAD)
    reasons.push(`a cell's processes differ by ${pct(spread)} (sd of their medians, above ${pct(UNSTABLE_SPREAD)})`);
  return { aa, spread, unstable: reasons.length > 0, reasons };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The noise line of the summary, and the warning with what to do when the run is unstable. */
export function renderStability(s: Stability): string[] {
  const parts = [
    ...s.aa.map(
      (f) =>
        `A/A noise ${pct(f.value)} on ${f.subject} (${f.pairs} pair${f.pairs === 1 ? '' : 's'} of ${f.cell ?? 'its reference cell'})`,
    ),
    ...(s.spread === null ? [] : [`spread between a cell's processes ${pct(s.spread)}`]),
  ];
  const lines = parts.length ? [`Noise: ${parts.join('; ')}.`] : [];
  if (s.unstable) {
    lines.push(
      `warning: this run may be unstable: ${s.reasons.join('; ')}. On a quiet machine these stay below ${pct(UNSTABLE_AA)} and ${pct(UNSTABLE_SPREAD)} (docs/performance.md). Check what else runs here with \`benchgrid system\`, stop it, and run again.`,
    );
  }
  return lines;
}
