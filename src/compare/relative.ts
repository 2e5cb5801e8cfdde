// Compare across runs (issue 13): a tool's change judged on its ratio to the same group's baseline cell
// (`raw`, else the subject's A/A reference tool) of the same run, which cancels what is common to a run.
import type { CellResult } from '../results/model.ts';
import type { SpeedComparison } from './model.ts';
import { compareSpeed, type SpeedContext } from './speed.ts';
import { processMedians } from './stats.ts';

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

/**
 * The ratio rule: the speed rule (bootstrap interval beyond the noise band and process-level t-test)
 * applied to the relative samples. `before_ms`/`after_ms` stay the cells' own medians; `ratio` and the
 * interval are of the change relative to the baseline.
 */
export function compareRelative(pair: { before: CellResult; after: CellResult }, base: { before: CellResult; after: CellResult }, ctx: SpeedContext): SpeedComparison {
  const rel = (c: CellResult, b: CellResult): CellResult => ({ ...c, samples_ms: relativeSamples(raw(c), raw(b)), per_process: null, min_ms: null, max_ms: null, median_ms: null, processes: null });
  const s = compareSpeed(rel(pair.before, base.before), rel(pair.after, base.after), ctx);
  return { ...s, why: `relative to ${base.before.tool}: ${s.why}`, before_ms: pair.before.median_ms, after_ms: pair.after.median_ms };
}

function raw(c: CellResult): number[][] {
  return (c.samples_ms ?? []).filter((s) => Array.isArray(s) && s.length > 0 && s.every((v) => typeof v === 'number' && Number.isFinite(v) && v > 0));
}
