// Which cells met the run's precision target (protocol.precision, --precision), as the summary says it:
// how many met it, and the ones that did not with their half-widths and why they stopped. Pure.
import type { CellResult, Results } from '../results/model.ts';
import { wrap } from '../util/width.ts';

/** A cell that stopped before its interval met the target. */
export interface UnmetCell {
  cell: string;
  /** Relative half-width of the 95% interval it was judged on (a paired cell: its published one). */
  half_width: number | null;
  processes: number;
}

/** The run's precision target and how its cells fared (`run --json`: summary.precision). */
export interface PrecisionSummary {
  target: number;
  /** Cells judged against the target: measured cells with a stop recorded, raw cells timed by their row left out. */
  cells: number;
  met: number;
  /** Ran `processes`, the most, and are still wider. */
  wider: UnmetCell[];
  /** The run-to-run component alone is wider than the target: no number of processes in one run narrows it. */
  unreachable: UnmetCell[];
}

/** The target the run ran with: the protocol's precision recorded with its subjects; null without one. */
function targetOf(results: Results): number | null {
  for (const s of Object.values(results.subjects ?? {})) {
    const p = (s?.meta?.protocol as { precision?: unknown } | undefined)?.precision;
    if (typeof p === 'number' && Number.isFinite(p) && p > 0) return p;
  }
  return null;
}

/** The summary of a run with a precision target; null for a run without one (every cell ran all its processes). */
export function precisionOf(results: Results): PrecisionSummary | null {
  const target = targetOf(results);
  if (target === null) return null;
  // A raw cell timed by its row's processes never ran a process of its own to add or stop.
  const judged = results.cells.filter((c) => c.status === 'ok' && c.stopped_by && !c.baseline_from?.length);
  const unmet = (c: CellResult): UnmetCell => ({
    cell: c.id,
    half_width: c.precision_half_width ?? null,
    processes: c.processes ?? c.per_process?.length ?? 0,
  });
  return {
    target,
    cells: judged.length,
    met: judged.filter((c) => c.stopped_by === 'precision').length,
    wider: judged.filter((c) => c.stopped_by === 'processes' || c.stopped_by === 'budget').map(unmet),
    unreachable: judged.filter((c) => c.stopped_by === 'unreachable').map(unmet),
  };
}

const pct = (x: number | null) => (x === null ? 'no interval' : `±${(x * 100).toFixed(1)}%`);

/** The summary's lines: the count, then the cells that did not meet the target, each with its half-width. */
export function renderPrecision(p: PrecisionSummary | null, width: number): string[] {
  if (!p || p.cells === 0) return [];
  const lines = [
    `Precision target ±${(p.target * 100).toFixed(1)}% (protocol.precision): ${p.met} of ${p.cells} cells met it.`,
  ];
  if (p.wider.length)
    lines.push(
      `Still wider after their most processes (more processes, a quieter machine or a looser target would resolve them): ${p.wider.map((c) => `${c.cell} ${pct(c.half_width)} (${c.processes} processes)`).join(', ')}.`,
    );
  if (p.unreachable.length)
    lines.push(
      `Unreachable in one run (the run-to-run component alone is wider than the target, docs/protocol.md "Between runs"; stopped at the fewest processes): ${p.unreachable.map((c) => `${c.cell} ${pct(c.half_width)}`).join(', ')}.`,
    );
  return lines.flatMap((l) => wrap(l, width));
}
