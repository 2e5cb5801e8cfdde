// The one figure every "x raw" in benchgrid shows (docs/protocol.md, "Pairing"): a cell's cost over the plain
// forward. Paired where the cell was timed against its baseline in its own processes, otherwise the ratio
// of two sets of processes' medians, marked unpaired with the reason. Pure.
import { BASELINE_TOOL } from '../plan/pairing.ts';
import type { CellResult, Results } from './model.ts';
import { estimateFromInterval, intervalOf, withComponent, type LogEstimate } from '../stats/paired.ts';
export { toolTaxes, type ToolTax } from './control.ts';
import { componentFor, type BetweenModel } from '../stats/between-run.ts';
export type { BetweenRun } from '../stats/between-run.ts';

/** A cell's ratio to its baseline, how it was obtained, and its interval. */
export interface Published {
  ratio: number;
  /** 95% interval (paired); for an unpaired ratio the extremes of the two cells' process medians, or null. */
  low: number | null;
  high: number | null;
  paired: boolean;
  /** Why the ratio is unpaired (null when paired). */
  why: string | null;
}

/** Cells by id, for finding a cell's baseline in its own run. */
export type CellIndex = Map<string, CellResult>;

/** The index of a results model's cells. */
export function cellIndex(results: Results | readonly CellResult[]): CellIndex {
  const cells = Array.isArray(results) ? results : (results as Results).cells;
  return new Map(cells.map((c) => [c.id, c]));
}

/** The cell of `tool` in the same group, contract and subject as `c`. */
export function sibling(c: CellResult, tool: string, cells: CellIndex): CellResult | null {
  return cells.get(`${c.group}/${c.contract}/${tool}/${c.subject}`) ?? null;
}

/**
 * The cell's published ratio to the plain forward: its paired ratio (tool against the baseline in the same
 * processes, times the import tax) with its 95% interval; else, for an ok cell whose row has an ok `raw`
 * cell, the ratio of their medians, with the extremes of their process medians and why it is unpaired.
 * Null for the baseline cell itself and where neither can be computed.
 */
export function publishedRatio(c: CellResult, cells: CellIndex): Published | null {
  if (c.status !== 'ok' || c.tool === BASELINE_TOOL) return null;
  if (c.paired)
    return {
      ratio: c.paired.published.ratio,
      low: c.paired.published.ci95[0],
      high: c.paired.published.ci95[1],
      paired: true,
      why: null,
    };
  const base = sibling(c, BASELINE_TOOL, cells);
  if (base?.status !== 'ok' || !(base.median_ms && base.median_ms > 0) || c.median_ms === null) return null;
  const low = c.min_ms !== null && base.max_ms ? c.min_ms / base.max_ms : null;
  const high = c.max_ms !== null && base.min_ms ? c.max_ms / base.min_ms : null;
  return {
    ratio: c.median_ms / base.median_ms,
    low,
    high,
    paired: false,
    why: c.unpaired ?? 'no paired timing in this results file',
  };
}

/**
 * A cell's ratio to another tool's cell of its row (the group's reference): with both paired, the ratio of
 * their paired ratios (each process's offset already divided out, the intervals' half-widths combined on
 * the log scale); otherwise the ratio of their medians.
 */
export function ratioTo(
  c: CellResult,
  other: CellResult | null,
  cells: CellIndex,
): { ratio: number; paired: boolean } | null {
  if (!other || other.id === c.id || c.status !== 'ok' || other.status !== 'ok') return null;
  const a = publishedRatio(c, cells);
  const b = publishedRatio(other, cells);
  if (a?.paired && b?.paired) return { ratio: a.ratio / b.ratio, paired: true };
  return c.median_ms !== null && other.median_ms ? { ratio: c.median_ms / other.median_ms, paired: false } : null;
}

/**
 * Every paired cell with its published ratio (docs/protocol.md, "What x raw is"): the paired ratio, the
 * tool against its baseline timed in alternation after the tool's import, in every run; its interval
 * adds the run-to-run component `between` to the cell's own variance (Satterthwaite's degrees of freedom),
 * so that it covers what the next run will say, not only this run's pairs. Nothing is multiplied in: the
 * import tax is its own figure beside it (src/results/control.ts), so no headline changes with an interval.
 */
export function withPublished(cells: readonly CellResult[], model: BetweenModel | null): CellResult[] {
  return cells.map((c) => {
    if (!c.paired) return c;
    const between = model ? componentFor(model, c.paired.ratio) : null;
    const own = pairedEstimate(c.paired);
    const e = own && between && between.variance > 0 ? withComponent(own, between.variance, between.df) : own;
    const added = own !== null && e !== own;
    // Without a component the published interval is the paired one itself, not one rebuilt from it (whose
    // bounds a log and an exp may move by a unit in the last place); with one it is widened, and the bounds
    // are clamped to enclose the paired interval so that rounding never makes it the narrower of the two.
    const ci95: [number, number] = added ? enclosing(intervalOf(e!).ci95, c.paired.ci95) : c.paired.ci95;
    return {
      ...c,
      paired: {
        ...c.paired,
        published: {
          ratio: c.paired.ratio,
          ci95,
          tax: null,
          ...(e ? { df: e.df } : {}),
          between_run: between && between.variance > 0 ? Math.sqrt(between.variance) : 0,
        },
      },
    };
  });
}

function enclosing(wide: [number, number], inner: [number, number]): [number, number] {
  return [Math.min(wide[0], inner[0]), Math.max(wide[1], inner[1])];
}

/** A paired cell's own estimate (its processes, moderated as its interval was), from its interval and df. */
export function pairedEstimate(p: { ratio: number; ci95: [number, number]; df?: number }): LogEstimate | null {
  return estimateFromInterval(p);
}

/** Whether a published ratio has an interval: one paired process has none (its ci95 is [0, null], unbounded). */
export function hasInterval(p: Published): p is Published & { low: number; high: number } {
  return p.low !== null && p.high !== null && Number.isFinite(p.high);
}

/** `1.24x (1.20-1.28)`, or `1.24x unpaired` (the reason is said once, elsewhere). */
export function formatPublished(p: Published | null): string {
  if (!p) return '';
  if (!p.paired) return `${p.ratio.toFixed(2)}x unpaired`;
  if (!hasInterval(p)) return `${p.ratio.toFixed(2)}x (1 process)`;
  return `${p.ratio.toFixed(2)}x (${p.low.toFixed(2)}-${p.high.toFixed(2)})`;
}
