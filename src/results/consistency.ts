// Whether a cell's derived figures agree with the raw samples they are computed from (src/results/aggregate.ts
// writes both). compare judges the samples but prints and ranks by the figures, and report and history read
// the figures alone: a file whose medians were edited would otherwise be shown, or pass `--fail-on-slower`,
// as something it never measured. Pure: the loader turns a finding into its UserError.
import type { CellResult } from './model.ts';
import { median, summary } from '../stats/summary.ts';
import { pairEstimate } from '../stats/paired.ts';
import { gcMedian } from './gc.ts';

/**
 * Largest relative difference read as floating-point rounding. benchgrid writes each figure from the very
 * samples it stores and JSON keeps doubles exactly, so an honest file agrees to the last bit; the slack is
 * for a file rewritten by another tool (a median computed in a different order), far below any edit that
 * changes what a figure says.
 */
const ROUNDING = 1e-9;

function same(a: number, b: number): boolean {
  if (a === b) return true;
  return Math.abs(a - b) <= ROUNDING * Math.max(Math.abs(a), Math.abs(b));
}

/** A figure as the message shows it: enough digits to tell the two apart, no float noise (7.12, not 7.1199999). */
function shown(x: number): string {
  return String(Number(x.toPrecision(12)));
}

/**
 * The first derived figure of `c` that disagrees with the samples it claims to come from, in words
 * ("median 71.2 ms is not the median of its processes' medians (7.12 ms)"), or null. A cell without raw
 * samples (the seed layout, failed and unsupported cells) has nothing to check against and passes.
 * Figures that also depend on the rest of the run (intervals moderated by the run's pool, the run-to-run
 * component, controls and A/A pairs whose samples the file does not keep) are not recomputed here.
 */
export function cellInconsistency(c: CellResult): string | null {
  const samples = c.samples_ms;
  if (!samples || samples.length === 0 || samples.some((s) => s.length === 0)) return null;
  const stats = samples.map((s) => summary(s));
  const medians = stats.map((s) => s.median);
  const ms = (what: string, got: number, want: number, of: string) =>
    same(got, want) ? null : `${what} ${shown(got)} ms is not ${of} (${shown(want)} ms)`;
  const checks: (() => string | null)[] = [
    () =>
      c.median_ms === null ? null : ms('median', c.median_ms, median(medians), "the median of its processes' medians"),
    () =>
      c.min_ms === null ? null : ms('min', c.min_ms, Math.min(...medians), "the smallest of its processes' medians"),
    () =>
      c.max_ms === null ? null : ms('max', c.max_ms, Math.max(...medians), "the largest of its processes' medians"),
    () =>
      c.processes === null || c.processes === samples.length
        ? null
        : `processes ${c.processes} is not the number of processes with samples (${samples.length})`,
    () => {
      const i = (c.samples_per_process ?? []).findIndex((n, k) => n !== samples[k]?.length);
      return c.samples_per_process && (i >= 0 || c.samples_per_process.length !== samples.length)
        ? `samples_per_process ${JSON.stringify(c.samples_per_process)} does not count its samples (${JSON.stringify(samples.map((s) => s.length))})`
        : null;
    },
    () => perProcess(c, stats),
    () => {
      const gc = c.gc_median_ms == null || !c.gc_ms ? null : gcMedian(c.gc_ms);
      return gc === null || c.gc_median_ms == null
        ? null
        : ms('gc_median_ms', c.gc_median_ms, gc, "the median of its processes' gc medians");
    },
    () => paired(c, samples),
  ];
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return null;
}

/** per_process[i] against samples_ms[i]: the aggregate writes both from the same process, in the same order. */
function perProcess(c: CellResult, stats: ReturnType<typeof summary>[]): string | null {
  const per = c.per_process;
  if (!per) return null;
  if (per.length !== stats.length) return `per_process has ${per.length} processes, samples_ms ${stats.length}`;
  for (let i = 0; i < per.length; i++) {
    const p = per[i];
    const s = stats[i];
    const of = (what: string) => `the ${what} of samples_ms[${i}]`;
    const problem = !same(p.median_ms, s.median)
      ? `per_process[${i}].median_ms ${shown(p.median_ms)} ms is not ${of('median')} (${shown(s.median)} ms)`
      : !same(p.min_ms, s.min)
        ? `per_process[${i}].min_ms ${shown(p.min_ms)} ms is not ${of('smallest')} (${shown(s.min)} ms)`
        : !same(p.max_ms, s.max)
          ? `per_process[${i}].max_ms ${shown(p.max_ms)} ms is not ${of('largest')} (${shown(s.max)} ms)`
          : p.n !== s.n
            ? `per_process[${i}].n ${p.n} is not the number of samples_ms[${i}] (${s.n})`
            : null;
    if (problem) return problem;
  }
  return null;
}

/**
 * The paired processes' own figures, each from the cell's samples and the baselines timed beside them
 * (src/records/record.ts, pairedProcess), and the cell's paired ratio, their geometric mean
 * (src/results/paired.ts). Its interval is left alone: it is moderated by the whole run's pool.
 */
function paired(c: CellResult, samples: number[][]): string | null {
  const ps = c.paired?.processes;
  if (!c.paired || !ps || ps.length === 0) return null;
  for (const [j, p] of ps.entries()) {
    const tool = samples[p.index];
    const at = `paired.processes[${j}]`;
    if (!tool) return `${at}.index ${p.index} names no process of samples_ms (${samples.length})`;
    const ratio = pairEstimate(tool, p.baseline_ms);
    if (ratio !== null && !same(p.ratio, ratio))
      return `${at}.ratio ${shown(p.ratio)} is not the estimate of its pairs with samples_ms[${p.index}] (${shown(ratio)})`;
    if (p.baseline_ms.length > 0 && p.before_ms.length > 0) {
      const tax = median(p.baseline_ms) / median(p.before_ms);
      if (!same(p.tax, tax))
        return `${at}.tax ${shown(p.tax)} is not the median of its baseline_ms over the median of its before_ms (${shown(tax)})`;
    }
  }
  const geo = Math.exp(ps.reduce((a, p) => a + Math.log(p.ratio), 0) / ps.length);
  if (!same(c.paired.ratio, geo))
    return `paired.ratio ${shown(c.paired.ratio)} is not the geometric mean of its processes' ratios (${shown(geo)})`;
  return null;
}
