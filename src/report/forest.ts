// The forest plot that leads each section of the HTML report: per tool cell its paired x raw (its time over
// the plain forward, timed in the same processes) as a point with its 95% interval as a bar, on a log axis
// with a line at 1.0x. Pure: the page script only draws what this returns.
import { BASELINE_TOOL } from '../plan/pairing.ts';
import { workText } from '../results/annotations.ts';
import { hasInterval } from '../results/published.ts';
import { exactnessCell } from './format.ts';
import { chartLabel, chartTitle, PALETTE } from './html-parts.ts';
import type { PageEntryView, PageSectionView } from './page.ts';

/** What the page script needs to draw one section's forest plot: one row per paired tool cell, in page order. */
export interface ForestData {
  canvas: string;
  /** Per row: the tool with its marks (`nnsight 0.8.1 · mismatch · work: differs`), then the row label. */
  labels: string[][];
  /** Per row, for the tooltip's title: the full tool and row labels. */
  full: string[][];
  /** Per row, for the tooltip: the x raw as the table shows it, the exactness, the work difference. */
  details: string[][];
  /** The paired x raw of each row. */
  ratio: number[];
  /** Its 95% interval; null for a single paired process, which has none (the point is drawn alone). */
  interval: ([number, number] | null)[];
  /** Rows whose label is drawn in red: an exactness mismatch (or a vacuous check) or work other than the contract's. */
  flagged: boolean[];
  /** Interval colour of each row, by page row as the time chart colours them. */
  colors: string[];
  /** Bounds of the log x axis: they enclose 1.0 and every point and interval, with a margin. */
  min: number;
  max: number;
  /** The axis's labelled values (Chart.js's own log ticks crowd a narrow axis with overlapping labels). */
  ticks: number[];
}

/** A section's forest: its plot (null when no entry has a paired ratio), the entries left out by reason, and the caption saying so. */
export interface ForestView {
  chart: ForestData | null;
  leftOut: { reason: string; count: number }[];
  /** `Left out of the plot (3 of 5 cells): failed (1); not run (1); not measured (1).`; '' when none is. */
  caption: string;
}

/** What the plot shows, said under it (before the caption). */
export const FOREST_SENTENCE =
  "Each point is a tool's x raw: its time over the plain forward, the two timed in alternation in the same processes; the bar is its 95% interval, and the dashed line is 1.00x, no cost; a point without a bar comes from one process, which gives no interval. The scale is logarithmic, so 2x and 0.5x lie equally far from it. Beside each tool: its exactness against the group's reference, and work: differs where its work witnesses saw other work than the contract's; a mismatch, a vacuous check or a work difference turns the label red. Hover a row for its figures.";

/** Why an entry has no row; null when it has one. */
function leftOutReason(e: PageEntryView): string | null {
  if (e.kind === 'error') return 'failed';
  if (e.kind === 'unsupported') return 'not run';
  if (e.kind === 'missing') return 'not measured';
  if (e.tool === BASELINE_TOOL) return 'raw, the baseline';
  if (e.ratio?.paired) return null;
  if (e.ratio) return 'unpaired, so without an interval';
  return e.noBaseline ? 'without a raw cell to be timed against' : 'without a ratio to raw';
}

/** The caption's order: the cells with no ratio by their nature first, then those the run did not measure. */
const REASON_ORDER = [
  'raw, the baseline',
  'unpaired, so without an interval',
  'without a raw cell to be timed against',
  'without a ratio to raw',
  'failed',
  'not run',
  'not measured',
];

/**
 * The forest plot of a page section, in page order (the order of the table under it, so a row is found in
 * both at the same place); `prefix` is cut from row labels as the time chart cuts it. Each label carries
 * the exactness verdict's word and the work mark as the table writes them: `mismatch · work: differs`.
 */
export function forestData(section: PageSectionView, index: number, prefix: string): ForestView {
  const rows = section.entries.filter((e) => leftOutReason(e) === null);
  const counts = new Map<string, number>();
  for (const e of section.entries) {
    const why = leftOutReason(e);
    if (why) counts.set(why, (counts.get(why) ?? 0) + 1);
  }
  const leftOut = REASON_ORDER.filter((r) => counts.has(r)).map((reason) => ({ reason, count: counts.get(reason)! }));
  const total = leftOut.reduce((a, r) => a + r.count, 0);
  const caption = total
    ? `Left out of the plot (${total} of ${section.entries.length} cells): ${leftOut.map((r) => `${r.reason} (${r.count})`).join('; ')}.`
    : '';
  if (rows.length === 0) return { chart: null, leftOut, caption };
  // Coloured by page row as the time chart colours them, which counts the rows with a measured entry.
  const groups = [...new Set(section.entries.filter((e) => e.kind === 'measured' && e.result).map((e) => e.rowLabel))];
  const interval = rows.map((e) =>
    hasInterval(e.ratio!) ? ([e.ratio!.low, e.ratio!.high] as [number, number]) : null,
  );
  const ratio = rows.map((e) => e.ratio!.ratio);
  const bounds = logBounds([1, ...ratio, ...interval.flatMap((r) => r ?? [])]);
  const work = rows.map((e) => (e.result ? workText(e.result) : null));
  // The verdict's word as the table writes it, without the figures in brackets (they go in the tooltip).
  const verdict = rows.map((e) => exactnessCell(e.result).replace(/ \(.*$/, ''));
  const chart: ForestData = {
    canvas: `forest-${index}`,
    labels: rows.map((e, i) => {
      const [tool, row] = chartLabel(e, prefix);
      return [[tool, verdict[i], work[i] ? 'work: differs' : ''].filter(Boolean).join(' · '), row];
    }),
    full: rows.map(chartTitle),
    details: rows.map((e, i) => [
      `x raw ${e.ratioText}`,
      `exactness: ${exactnessCell(e.result) || 'not recorded'}`,
      ...(work[i] ? [work[i]!] : []),
    ]),
    ratio,
    interval,
    flagged: rows.map((_, i) => verdict[i] === 'mismatch' || verdict[i] === 'vacuous' || work[i] !== null),
    colors: rows.map((e) => PALETTE[groups.indexOf(e.rowLabel) % PALETTE.length]),
    ...bounds,
    ticks: axisTicks(bounds.min, bounds.max),
  };
  return { chart, leftOut, caption };
}

/**
 * Log-axis bounds around `values` (1.0 among them): a margin of a tenth of their span on the log scale (at
 * least 2%), rounded outward to two significant figures, so that the axis ends on readable values.
 */
export function logBounds(values: readonly number[]): { min: number; max: number } {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max(Math.log(hi / lo) * 0.1, Math.log(1.02));
  return { min: roundOut(lo * Math.exp(-pad), Math.floor), max: roundOut(hi * Math.exp(pad), Math.ceil) };
}

function roundOut(x: number, round: (v: number) => number): number {
  const step = 10 ** (Math.floor(Math.log10(x)) - 1);
  return Number((round(x / step) * step).toPrecision(2));
}

/** Steps of the ticks of an axis spanning less than a decade, finest first. */
const STEPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5];

/**
 * The labelled values of a log axis from `min` to `max`: 1, 2 and 5 times each power of ten across a decade
 * or more; below that, the multiples of the finest step that gives at most 7, so that the labels never
 * overlap. 1.0 is always among them (the bounds enclose it).
 */
export function axisTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  const add = (v: number) => {
    const x = Number(v.toPrecision(6));
    if (x >= min && x <= max) ticks.push(x);
  };
  if (max / min >= 10) {
    for (let p = Math.floor(Math.log10(min)); p <= Math.ceil(Math.log10(max)); p++)
      for (const m of [1, 2, 5]) add(m * 10 ** p);
    return ticks;
  }
  const step = STEPS.find((d) => Math.floor(max / d) - Math.ceil(min / d) + 1 <= 7) ?? STEPS[STEPS.length - 1];
  for (let k = Math.ceil(min / step); k * step <= max + 1e-9; k++) add(k * step);
  return ticks;
}
