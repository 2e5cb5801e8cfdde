// A/A noise of a run (docs/protocol.md, "The A/A cell"): the same reference cell measured in pairs of
// alternating fresh processes; where they paired, also judged on their paired ratios to raw. Pure.
import type { Plan } from '../plan/expand.ts';
import type { ProcessRecord } from '../records/journal.ts';
import type { AANoise } from './model.ts';
import { pairedProcess } from './paired.ts';
import { median } from '../stats/summary.ts';

/** The A/A cell of a subject: the first cell in plan order with A/A records, found by its cell's subject field. */
export function aaCellOf(plan: Plan, records: ProcessRecord[], subject: string): string | null {
  const withAA = new Set(records.filter((r) => r.kind === 'aa').map((r) => r.cell));
  return plan.cells.find((c) => c.subject === subject && withAA.has(c.id))?.id ?? null;
}

/**
 * A/A noise of one reference cell: processes 2k and 2k+1 form pair k, matched by their index, so a
 * failed process drops its own pair from the figure and leaves the other pairs as they are. The
 * figure is the largest relative difference of the two process medians within a pair; where the
 * processes paired, `paired` is the same of their paired ratios to raw.
 */
export function aaNoise(records: ProcessRecord[], cell: string | null): AANoise | null {
  const aa = records.filter((r) => r.kind === 'aa' && r.cell === cell);
  if (cell === null || aa.length === 0) return null;
  const medianOf = new Map<number, number>();
  for (const r of aa) {
    if (r.outcome.kind === 'result' && r.outcome.result.status === 'ok' && r.outcome.result.timing)
      medianOf.set(r.index, median(r.outcome.result.timing.samples_ms));
  }
  const ratioOf = new Map<number, number>();
  for (const r of aa) {
    if (r.outcome.kind !== 'result' || r.outcome.result.status !== 'ok' || !r.outcome.result.timing) continue;
    const p = pairedProcess(r.index, r.outcome.result.timing.samples_ms, r.outcome.result.paired);
    if (p) ratioOf.set(r.index, p.ratio);
  }
  const lastPair = Math.max(...aa.map((r) => Math.floor(r.index / 2)));
  const unpaired = aaPairs(medianOf, lastPair);
  const paired = aaPairs(ratioOf, lastPair);
  return {
    pairs: unpaired.values.length / 2,
    medians_ms: unpaired.values,
    max_rel_diff: unpaired.max,
    cell,
    // The same pairs of processes judged on their paired ratios to raw (docs/protocol.md, Pairing).
    ...(paired.values.length > 0
      ? { paired: { pairs: paired.values.length / 2, ratios: paired.values, max_rel_diff: paired.max } }
      : {}),
  };
}

/** Values of processes 2k and 2k+1 side by side, and the largest relative difference within a pair. */
function aaPairs(of: Map<number, number>, lastPair: number): { values: number[]; max: number | null } {
  const values: number[] = [];
  let max: number | null = null;
  for (let k = 0; k <= lastPair; k++) {
    const a = of.get(2 * k);
    const b = of.get(2 * k + 1);
    if (a === undefined || b === undefined) continue;
    values.push(a, b);
    max = Math.max(max ?? 0, Math.abs(a - b) / Math.min(a, b));
  }
  return { values, max };
}
