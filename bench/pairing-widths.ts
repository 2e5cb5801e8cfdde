// The interval widths of paired measurement in one run of the campaign (bench/pairing.sh): each group A tool
// cell's paired and published ratio against the unpaired interval two cells of 3 processes would give.
import jStat from 'jstat';
import { mean, median } from 'simple-statistics';
import type { CellResult, Results } from '../src/results/model.ts';
import type { Run } from './pairing-figures.ts';

/** The half-width of a ratio's 95% interval, as a share of the ratio (geometric). */
export const halfWidth = (ci: readonly [number, number]) => Math.sqrt(ci[1] / ci[0]) - 1;
const pct = (x: number) => Math.round(x * 10000) / 100;
/** A run's group A tool cells that ran: the cells paired against raw. */
export const toolCells = (r: Results) =>
  r.cells.filter((c) => c.group === 'A' && c.tool !== 'raw' && c.status === 'ok');

/**
 * The unpaired interval of a tool cell's ratio to raw in the same run, as two cells of 3 processes each
 * give it: Student's t (pooled variance) on the logs of its process medians against 3 of the raw cell's,
 * taken from other cells' processes (the raw cell is timed in its row's blocks before the import).
 */
export function unpairedCI(
  c: CellResult,
  raw: CellResult | undefined,
): { ratio: number; ci95: [number, number] } | null {
  if (!raw?.per_process || !c.per_process) return null;
  const a = c.per_process.map((p) => Math.log(p.median_ms));
  const b = raw.per_process
    .filter((p) => p.from !== c.id)
    .slice(0, 3)
    .map((p) => Math.log(p.median_ms));
  if (a.length < 2 || b.length < 2) return null;
  const ss = (xs: number[]) => xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0);
  const df = a.length + b.length - 2;
  const se = Math.sqrt(((ss(a) + ss(b)) / df) * (1 / a.length + 1 / b.length));
  const d = mean(a) - mean(b);
  const h = jStat.studentt.inv(0.975, df) * se;
  return { ratio: Math.exp(d), ci95: [Math.exp(d - h), Math.exp(d + h)] };
}
/** The raw cell of a cell's row. */
export const rawOf = (r: Results, c: CellResult) =>
  r.cells.find((x) => x.id === `${c.group}/${c.contract}/raw/${c.subject}`);

/** Paired and unpaired widths of one run's group A tool cells (the probe apart), and whether each paired ratio lies inside its unpaired interval. */
export function widths(run: Run) {
  const cells = toolCells(run.results).filter((c) => c.paired && c.tool !== 'probe');
  const per = cells.map((c) => {
    const u = unpairedCI(c, rawOf(run.results, c));
    // The unpaired ratio divides by raw timed in processes that imported nothing: the published ratio is the one to hold against it.
    const published = c.paired!.published.ratio;
    return {
      id: c.id,
      paired: c.paired!.ratio,
      published,
      paired_hw: halfWidth(c.paired!.ci95),
      published_hw: halfWidth(c.paired!.published.ci95),
      tax: c.import_tax?.ratio ?? null,
      unpaired: u?.ratio ?? null,
      unpaired_hw: u ? halfWidth(u.ci95) : null,
      inside_unpaired: u ? published >= u.ci95[0] && published <= u.ci95[1] : null,
    };
  });
  const m = (xs: (number | null)[]) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? median(v) : null;
  };
  return {
    run: run.name,
    cells: per.length,
    unpaired_cells_of_group_a: toolCells(run.results)
      .filter((c) => !c.paired)
      .map((c) => `${c.id}: ${c.unpaired}`),
    median_paired_hw: m(per.map((p) => p.paired_hw)),
    median_published_hw: m(per.map((p) => p.published_hw)),
    median_unpaired_hw: m(per.map((p) => p.unpaired_hw)),
    inside_unpaired: `${per.filter((p) => p.inside_unpaired).length}/${per.filter((p) => p.inside_unpaired !== null).length}`,
    outside: per
      .filter((p) => p.inside_unpaired === false)
      .map(
        (p) =>
          `${p.id}: published ${p.published.toFixed(3)} (paired ${p.paired.toFixed(3)}), unpaired ${p.unpaired?.toFixed(3)} (+-${pct(p.unpaired_hw ?? 0)}%)`,
      ),
    per_cell: per,
  };
}
