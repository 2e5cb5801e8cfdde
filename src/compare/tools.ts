// Tool verdicts (docs/compare.md "Tools"): did a tool as a whole get faster or slower? On a
// shared machine a 10% change of one cell sits inside the noise of that cell's three processes, but a
// tool measured in six cells has six independent looks at it. Pure.
import jStat from 'jstat';
import { moderatedLogSpread, pooledSpread, type Pool } from '../stats/spread.ts';
import type { CellComparison, CompareMode, SubjectNoise, ToolComparison } from './model.ts';
import { judgeBand } from './speed.ts';

/** Fewest comparable cells a tool needs for a verdict: with two, one odd cell would decide it. */
export const MIN_TOOL_CELLS = 3;

/** What the rule reads besides the cells. */
export interface ToolContext {
  /** The --threshold (smallest change worth a label), as a fraction. */
  option: number;
  confidence: number;
  alpha: number;
  noise: SubjectNoise[];
}

interface Group {
  subject: string;
  tool: string;
  mode: CompareMode;
  cells: CellComparison[];
}

/**
 * One verdict per tool and subject, from the change of each of its labelled cells in the mode that
 * decided them (ratio to the group's `raw` where the cells had one, else absolute). The estimate is the
 * geometric mean of the cells' changes (see `ratios`); its interval is Student's t on their logarithms,
 * cells being the unit of replication, so that noise the cell rule cannot see (a slow minute that hit
 * one cell's processes) is in the spread between cells. With five or more tools, each tool's variance
 * is moderated towards the comparison's typical spread between cells of one tool, as the precision rule
 * does with processes (src/sampling/precision.ts, moderatedLogSpread). The label is the cell rule's band rule
 * (judgeBand): the interval beyond ±--threshold (widened to the cell rule's A/A noise and run shift in
 * absolute mode) and p below alpha.
 */
export function compareTools(cells: readonly CellComparison[], ctx: ToolContext): ToolComparison[] {
  const groups = groupsOf(cells);
  const usable = groups.filter((g) => g.cells.length >= MIN_TOOL_CELLS);
  const pool = pooledSpread(usable.map((g) => ratios(g)));
  return groups.map((g) => verdict(g, pool, ctx));
}

/** Cells by subject and tool, each tool on the mode that decided most of its cells (ratio on a tie). */
function groupsOf(cells: readonly CellComparison[]): Group[] {
  const by = new Map<string, CellComparison[]>();
  for (const c of cells) {
    const key = `${c.subject}\u0000${c.tool}`;
    // Pushed, not copied: a copy per cell is quadratic in a tool's cells (minutes for 200,000).
    const group = by.get(key);
    if (group) group.push(c);
    else by.set(key, [c]);
  }
  return [...by.values()].map((cs) => {
    const judged = cs.filter((c) => c.speed.label !== 'unavailable' && c.speed.ratio !== null && c.speed.ratio > 0);
    const ratio = judged.filter((c) => c.speed.decided_by !== 'absolute');
    const absolute = judged.filter((c) => c.speed.decided_by === 'absolute');
    const mode: CompareMode = ratio.length >= absolute.length ? 'ratio' : 'absolute';
    return { subject: cs[0].subject, tool: cs[0].tool, mode, cells: mode === 'ratio' ? ratio : absolute };
  });
}

/**
 * Each cell's change as the process-level t-test sees it (the geometric means of its process medians):
 * with 3 processes, the mean of their logarithms varies about a quarter less than their median does,
 * and the spread between cells then says how well that mean is known.
 */
const ratios = (g: Group): number[] => g.cells.map((c) => c.speed.geometric_ratio ?? c.speed.ratio!);

function verdict(g: Group, pool: Pool | null, ctx: ToolContext): ToolComparison {
  const noise = ctx.noise.find((n) => n.subject === g.subject);
  // Absolute mode cannot cancel what is common to a run, so it keeps the cell rule's band: the A/A
  // noise and the measured run shift. Ratio mode's band is only the smallest change worth a label.
  const threshold = g.mode === 'absolute' ? (noise?.absolute_threshold ?? noise?.threshold ?? ctx.option) : ctx.option;
  const base = { subject: g.subject, tool: g.tool, mode: g.mode, cells: g.cells.map((c) => c.id), threshold };
  const k = g.cells.length;
  if (k < MIN_TOOL_CELLS) {
    return {
      ...base,
      label: 'unavailable',
      ratio: null,
      interval: null,
      test: null,
      why: `${k} comparable cell(s); a tool verdict needs ${MIN_TOOL_CELLS}`,
    };
  }
  const { mean, variance, df, moderated } = moderatedLogSpread(ratios(g), pool);
  const se = Math.sqrt(variance / k);
  const tCrit = jStat.studentt.inv(1 - (1 - ctx.confidence) / 2, df);
  const interval = { low: Math.exp(mean - tCrit * se), high: Math.exp(mean + tCrit * se) };
  const t = se > 0 ? mean / se : mean === 0 ? 0 : Math.sign(mean) * Infinity;
  const p = Number.isFinite(t) ? 2 * (1 - jStat.studentt.cdf(Math.abs(t), df)) : 0;
  const ci = `${Math.round(ctx.confidence * 100)}% CI ${interval.low.toFixed(3)}-${interval.high.toFixed(3)} over ${k} cells`;
  const { label, why } = judgeBand(ci, interval, { p }, 'the t-test over cells', threshold, ctx.alpha);
  return { ...base, label, ratio: Math.exp(mean), interval, test: { t, df, p, moderated }, why };
}
