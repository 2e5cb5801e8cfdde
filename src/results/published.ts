// The one figure every "x raw" in benchgrid shows (docs/protocol.md, "Pairing"): a cell's cost over the plain
// forward. Paired where the cell was timed against its baseline in its own processes, otherwise the ratio
// of two sets of processes' medians, marked unpaired with the reason. Pure.
import { BASELINE_TOOL } from '../plan/pairing.ts';
import type { CellResult, Results } from './model.ts';
import { logInterval, type RatioCI } from '../stats/paired.ts';
import { pooledSpread } from '../stats/spread.ts';

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
  if (c.paired) return { ratio: c.paired.published.ratio, low: c.paired.published.ci95[0], high: c.paired.published.ci95[1], paired: true, why: null };
  const base = sibling(c, BASELINE_TOOL, cells);
  if (!base || base.status !== 'ok' || !(base.median_ms && base.median_ms > 0) || c.median_ms === null) return null;
  const low = c.min_ms !== null && base.max_ms ? c.min_ms / base.max_ms : null;
  const high = c.max_ms !== null && base.min_ms ? c.max_ms / base.min_ms : null;
  return { ratio: c.median_ms / base.median_ms, low, high, paired: false, why: c.unpaired ?? 'no paired timing in this results file' };
}

/**
 * A cell's ratio to another tool's cell of its row (the group's reference): with both paired, the ratio of
 * their paired ratios (each process's offset already divided out, the intervals' half-widths combined on
 * the log scale); otherwise the ratio of their medians.
 */
export function ratioTo(c: CellResult, other: CellResult | null, cells: CellIndex): { ratio: number; paired: boolean } | null {
  if (!other || other.id === c.id || c.status !== 'ok' || other.status !== 'ok') return null;
  const a = publishedRatio(c, cells);
  const b = publishedRatio(other, cells);
  if (a?.paired && b?.paired) return { ratio: a.ratio / b.ratio, paired: true };
  return c.median_ms !== null && other.median_ms ? { ratio: c.median_ms / other.median_ms, paired: false } : null;
}

/** One tool's import tax over its cells of one subject (the per-tool line of every report). */
export interface ToolTax {
  tool: string;
  subject: string;
  ratio: number;
  low: number;
  high: number;
  cells: number;
  processes: number;
}

/**
 * Per tool and subject, the import tax over every paired process of its cells: the geometric mean of the
 * processes' taxes with a t interval over them, moderated towards the run's typical spread between a
 * tool's processes. A tool's tax may differ between contracts (a backward is not slowed by what a patched
 * forward costs); the cells' own figures are in each cell's `import_tax`.
 */
export function toolTaxes(cells: readonly CellResult[]): ToolTax[] {
  const groups = new Map<string, CellResult[]>();
  for (const c of cells) {
    if (c.status !== 'ok' || !c.paired) continue;
    const key = `${c.subject}\u0000${c.tool}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const taxesOf = (cs: CellResult[]) => cs.flatMap((c) => c.paired!.processes.map((p) => p.tax));
  const pool = pooledSpread([...groups.values()].map(taxesOf));
  return [...groups.values()].flatMap((cs) => {
    const ci = logInterval(taxesOf(cs), pool);
    if (!ci) return [];
    return [{ tool: cs[0].tool, subject: cs[0].subject, ratio: ci.ratio, low: ci.ci95[0], high: ci.ci95[1], cells: cs.length, processes: taxesOf(cs).length }];
  });
}

/**
 * Every paired cell with its published ratio (docs/protocol.md, "What the published ratio divides by"). A
 * tool whose import demonstrably slows torch for everyone (its import tax over all its paired processes
 * of the subject lies above 1 at 95%) has each cell divided by the baseline before the import: the cell's
 * paired ratio times the cell's own import tax (contracts differ in how much of their work a patched
 * torch slows), the two intervals combined on the log scale. Every other tool's published ratio is its
 * paired ratio. So a tool that slows torch is never shown as cheap as its paired ratio alone.
 */
export function withToolTax(cells: readonly CellResult[]): CellResult[] {
  const taxes = toolTaxes(cells);
  return cells.map((c) => {
    if (!c.paired) return c;
    const t = taxes.find((x) => x.tool === c.tool && x.subject === c.subject);
    if (!t || !(t.low > 1) || !c.import_tax) return { ...c, paired: { ...c.paired, published: { ratio: c.paired.ratio, ci95: c.paired.ci95, tax: null } } };
    const half = (ci: RatioCI) => Math.log(ci.ratio) - Math.log(ci.ci95[0]);
    const h = Math.hypot(half(c.paired), half(c.import_tax));
    const ratio = c.paired.ratio * c.import_tax.ratio;
    return { ...c, paired: { ...c.paired, published: { ratio, ci95: [ratio * Math.exp(-h), ratio * Math.exp(h)], tax: c.import_tax.ratio } } };
  });
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
