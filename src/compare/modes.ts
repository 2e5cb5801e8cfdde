// The two compare modes side by side (docs/compare.md, "Across runs"): which one decides, and the
// run-level shift that widens the absolute mode's threshold. Pure.
import type { CellResult, Results } from '../results/model.ts';
import type { CompareMode, EnvDifference, SpeedComparison } from './model.ts';
import { baselineOf } from './relative.ts';

/** The tool of the subject's A/A reference cell in a run (`GROUP/contract/TOOL/subject`), or null. */
export function aaTool(r: Results, subject: string): string | null {
  return r.subjects[subject]?.meta?.aa_noise?.cell?.split('/')[2] ?? null;
}

/** A cell's baseline in its own run (see relative.ts), with the run's lookup tables. */
export function baselineIn(r: Results, byId: Map<string, CellResult>, cell: CellResult): CellResult | null {
  return baselineOf(cell, byId, (subject) => aaTool(r, subject));
}

/**
 * The run shift of a subject: after/before of its baseline cell (the A/A reference cell, else the first
 * `raw` cell), when both runs measured it and no blocking environment difference makes the change a real
 * one rather than the machine's. Null otherwise.
 */
export function runShift(
  before: Results,
  after: Results,
  subject: string,
  differences: EnvDifference[],
): { cell: string; ratio: number } | null {
  const blocking = differences.some((d) => d.blocking && (d.subjects === null || d.subjects.includes(subject)));
  if (blocking) return null;
  const ok = (r: Results, id: string) =>
    r.cells.find((c) => c.id === id && c.status === 'ok' && c.median_ms !== null && c.median_ms > 0);
  const candidates = [
    before.subjects[subject]?.meta?.aa_noise?.cell,
    ...before.cells.filter((c) => c.subject === subject && c.tool === 'raw').map((c) => c.id),
  ];
  for (const id of candidates) {
    if (!id) continue;
    const b = ok(before, id);
    const a = ok(after, id);
    if (b && a) return { cell: id, ratio: a.median_ms! / b.median_ms! };
  }
  return null;
}

/**
 * The label of a cell given both modes' verdicts: the chosen mode decides when it could give a label
 * (its verdict is not `unavailable`); otherwise the other decides. The other is kept beside it.
 */
export function decide(mode: CompareMode, ratio: SpeedComparison | null, absolute: SpeedComparison): SpeedComparison {
  const usable = ratio && ratio.label !== 'unavailable' ? ratio : null;
  const first = mode === 'ratio' ? usable : absolute;
  const chosen = first ?? absolute;
  const decidedBy: CompareMode = chosen === absolute ? 'absolute' : 'ratio';
  const otherOne = chosen === absolute ? ratio : absolute;
  return {
    ...chosen,
    decided_by: decidedBy,
    other: otherOne
      ? {
          mode: decidedBy === 'ratio' ? 'absolute' : 'ratio',
          label: otherOne.label,
          ratio: otherOne.ratio,
          interval: otherOne.interval,
          threshold: otherOne.threshold,
          why: otherOne.why,
        }
      : null,
  };
}
