// Compare across runs: a tool's change judged on its ratio to its baseline within each run, which cancels
// what is common to a run. Where a cell was timed against its baseline in its own processes (paired,
// docs/protocol.md), its ratio is taken pair by pair inside each process; otherwise it is divided by the
// same group's baseline cell (`raw`, else the subject's A/A reference tool) of the same run.
import type { CellResult } from '../results/model.ts';
import { pairedSamples } from '../results/paired.ts';
import type { SpeedComparison } from './model.ts';
import { compareSpeed, type SpeedContext } from './speed.ts';
import { processMedians } from '../stats/significance.ts';

/** The tool a cell is divided by when no `raw` cell is in its group: the subject's A/A reference tool. */
export type BaselineTools = (subject: string) => string | null;

/**
 * The baseline of a cell in its own run: the ok cell of the same group, contract and subject whose tool
 * is `raw`, else the A/A reference tool; null when neither was measured, or the cell is the baseline.
 */
export function baselineOf(cell: CellResult, byId: Map<string, CellResult>, fallback: BaselineTools): CellResult | null {
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
export function compareRelative(pair: { before: CellResult; after: CellResult }, sides: { before: RelativeSide; after: RelativeSide }, baseline: string, ctx: SpeedContext): SpeedComparison {
  const rel = (c: CellResult, side: RelativeSide): CellResult => ({ ...c, samples_ms: side.samples, per_process: null, min_ms: null, max_ms: null, median_ms: null, processes: null });
  const s = compareSpeed(rel(pair.before, sides.before), rel(pair.after, sides.after), ctx);
  const how = sides.before.paired && sides.after.paired ? 'paired' : sides.before.paired ? 'paired before, unpaired after' : sides.after.paired ? 'unpaired before, paired after' : 'unpaired';
  return { ...s, why: `relative to ${baseline} (${how}): ${s.why}`, before_ms: pair.before.median_ms, after_ms: pair.after.median_ms, paired: how };
}

function raw(c: CellResult): number[][] {
  return (c.samples_ms ?? []).filter((s) => Array.isArray(s) && s.length > 0 && s.every((v) => typeof v === 'number' && Number.isFinite(v) && v > 0));
}
