// Text pieces shared by the table and markdown writers, so both say the same things the same way.
import { formatMs } from '../report/format.ts';
import { PLAIN, type Sink } from '../util/escape.ts';
import type {
  CellComparison,
  Comparison,
  EnvDifference,
  RunSummary,
  SpeedComparison,
  SubjectNoise,
  ToolComparison,
} from './model.ts';
import { SEED_LAYOUT } from '../results/model.ts';

/**
 * Values as they are, for the terminal (its renderer escaped every string of the comparison already) and
 * for error messages: no backticks around code either.
 */
const PLAIN_TEXT: Sink = { text: PLAIN.text, code: PLAIN.text };

/** A fraction as a percentage: 0.0213 -> "2.1%". */
export function pct(fraction: number): string {
  return `${(fraction * 100).toFixed(1)}%`;
}

/** A ratio as a signed change: 1.083 -> "+8.3%", 0.959 -> "-4.1%". */
export function change(ratio: number | null): string {
  if (ratio === null) return '';
  const d = (ratio - 1) * 100;
  return `${d >= 0 ? '+' : '-'}${Math.abs(d).toFixed(1)}%`;
}

/** A time in the report's units (`2.30 ms`, `1.06 s`), so a comparison reads like the reports it compares. */
export function ms(v: number | null): string {
  if (v === null) return '';
  return formatMs(v);
}

/** A side's time, or its status when it was not measured, or "absent". */
export function sideTime(side: CellComparison['before'], v: number | null): string {
  if (!side) return 'absent';
  return side.status === 'ok' ? ms(v) : side.status;
}

/** The interval as signed changes; range-rule intervals are marked with †. */
export function interval(s: SpeedComparison): string {
  if (!s.interval) return '';
  return `${change(s.interval.low)} to ${change(s.interval.high)}${s.interval.kind === 'range' ? ' †' : ''}`;
}

/** A p-value cell: two significant digits, or a bound. */
export function pValue(p: number | null | undefined): string {
  if (p === null || p === undefined) return '';
  return p < 0.001 ? '<0.001' : p.toPrecision(2);
}

/** The label as words, † when it came from the range rule. */
export function label(s: SpeedComparison): string {
  const words = s.label === 'within_noise' ? 'within noise' : s.label;
  return s.basis === 'range' ? `${words} †` : words;
}

/** The mode that decided a label: `ratio` (vs the group's raw cell) or `absolute`; empty when none did. */
export function rule(s: SpeedComparison): string {
  return s.label === 'unavailable' ? '' : (s.decided_by ?? '');
}

/** The other mode's verdict in a few words: "absolute +9.8% slower". */
export function other(s: SpeedComparison): string {
  const o = s.other;
  if (!o || s.label === 'unavailable') return '';
  const words = o.label === 'within_noise' ? 'within noise' : o.label;
  return `${o.mode} ${change(o.ratio)} ${words}`.replace(/\s+/g, ' ');
}

/** The footnote on the change, interval, rule and other columns. */
export const MODE_NOTE =
  "change, interval: of the rule that decided the label; rule ratio: the change of the cell's time relative to its group's raw cell in the same run (cancels what is common to a run), absolute: its own times, threshold widened by the run shift; other: the other rule's verdict (docs/compare.md).";

/** "4 slower, 1 faster, 30 within noise, 2 unavailable (of 37 cells)". */
export function headline(c: Comparison): string {
  const s = c.summary;
  const oneSided = s.only_before + s.only_after;
  const judged = s.tools_judged ?? (c.tools ?? []).filter((t) => t.label !== 'unavailable').length;
  const tools =
    judged > 0 ? `; tools: ${s.tools_slower ?? 0} slower, ${s.tools_faster ?? 0} faster of ${judged} judged` : '';
  return `${s.slower} slower, ${s.faster} faster, ${s.within_noise} within noise, ${s.unavailable} unavailable (of ${s.cells} cells${oneSided ? `, ${oneSided} of them in one file only` : ''})${tools}`;
}

/**
 * What --only-changed left out, above the cells it shows; when it left every cell out, that one line in
 * place of the table: "No cell changed beyond noise (--only-changed): 77 cells compared."
 */
export function onlyChangedLine(shown: number, hidden: number): string {
  return shown === 0
    ? `No cell changed beyond noise (--only-changed): ${hidden} cells compared.`
    : `Showing the ${shown} cells that changed (--only-changed); ${hidden} without a change are left out.`;
}

/**
 * The tools table of the judged tools: head, alignments and rows (the subject column only when there is
 * more than one subject). `mark` dresses a label (colour, bold).
 */
export function toolTable(
  tools: ToolComparison[],
  mark: (label: string, text: string) => string,
  s: Sink = PLAIN_TEXT,
): { head: string[]; aligns: ('left' | 'right')[]; rows: string[][] } {
  const judged = tools.filter((t) => t.label !== 'unavailable');
  const subjects = new Set(judged.map((t) => t.subject)).size > 1;
  const pick = <T>(xs: T[]) => (subjects ? xs : xs.filter((_, i) => i !== 1));
  const rows = judged.map((t) => {
    const iv = t.interval ? `${change(t.interval.low)} to ${change(t.interval.high)}` : '';
    const text = t.label === 'within_noise' ? 'within noise' : t.label;
    return pick([
      s.code(t.tool),
      s.text(t.subject),
      t.mode,
      String(t.cells.length),
      change(t.ratio),
      iv,
      pValue(t.test?.p),
      mark(t.label, text),
    ]);
  });
  return {
    head: pick(['tool', 'subject', 'mode', 'cells', 'change', 'interval', 't-test p', 'label']),
    aligns: pick<'left' | 'right'>(['left', 'left', 'left', 'right', 'right', 'left', 'right', 'left']),
    rows,
  };
}

/** What the tools table means, under it. */
export const TOOLS_NOTE =
  "Tools: the geometric mean of a tool's cell changes in the mode that decided them, 95% t interval over its cells (variance moderated towards the comparison's typical spread between cells of one tool); labelled when the interval lies beyond ±--threshold (absolute mode: the cell rule's band) and p < alpha.";

/** How a run is described in headers. */
export function describeRun(r: RunSummary, s: Sink = PLAIN_TEXT): string {
  const parts = [r.origin === SEED_LAYOUT ? 'seed layout' : `benchgrid${r.spec ? `, spec ${s.text(r.spec)}` : ''}`];
  if (r.measured_on) parts.push(`measured ${s.text(r.measured_on)}`);
  if (!r.raw_samples) parts.push('no raw samples');
  if (r.partial) parts.push('partial run');
  return `${s.code(r.file)} (${parts.join(', ')})`;
}

/** One environment difference as a line: "device: cuda -> cpu [resnet18]". */
export function envLine(d: EnvDifference, s: Sink = PLAIN_TEXT): string {
  const v = (x: string | null, recorded: boolean) => (!recorded ? 'not recorded' : x === null ? 'none' : s.code(x));
  const before = v(d.before, d.recorded !== 'after');
  const after = v(d.after, d.recorded !== 'before');
  const scope = d.subjects ? ` [${d.subjects.map(s.text).join(', ')}]` : '';
  const note = d.blocking ? '' : d.recorded !== 'both' ? ' (recorded on one side only)' : ' (not blocking)';
  return `${s.text(d.key)}: ${before} -> ${after}${scope}${note}`;
}

/** Environment lines: blocking and other two-sided differences in full, one-sided facts on one line. */
export function envLines(diffs: EnvDifference[], s: Sink = PLAIN_TEXT): string[] {
  const lines = diffs.filter((d) => d.recorded === 'both').map((d) => envLine(d, s));
  for (const side of ['before', 'after'] as const) {
    const only = diffs.filter((d) => d.recorded === side).map((d) => d.key);
    if (only.length > 0)
      lines.push(`recorded in ${side} only (not blocking): ${[...new Set(only)].map(s.text).join(', ')}`);
  }
  return lines;
}

/** A list of cell ids, cut after `max` with a count of the rest. */
export function idList(ids: string[], s: Sink = PLAIN_TEXT, max = 12): string {
  const shown = ids.slice(0, max).map(s.code).join(', ');
  return ids.length > max ? `${shown} and ${ids.length - max} more (all in --format json)` : shown;
}

/** `Only in before (2): a, b`: a line for each side that has cells the other lacks. */
export function onlyInLines(c: Comparison, s: Sink = PLAIN_TEXT): string[] {
  const only = { before: c.cells.filter((x) => !x.after), after: c.cells.filter((x) => !x.before) };
  return (['before', 'after'] as const).flatMap((side) => {
    const ids = only[side].map((x) => x.id);
    return ids.length > 0 ? [`Only in ${side} (${ids.length}): ${idList(ids, s)}`] : [];
  });
}

/** The noise threshold of a subject and where it came from. */
export function noiseLine(n: SubjectNoise, s: Sink = PLAIN_TEXT): string {
  const aa = [
    n.aa_before && `before ${pct(n.aa_before.max_rel_diff)} over ${n.aa_before.pairs} pairs`,
    n.aa_after && `after ${pct(n.aa_after.max_rel_diff)} over ${n.aa_after.pairs} pairs`,
  ].filter(Boolean);
  const paired = [
    n.aa_paired_before && `before ${pct(n.aa_paired_before.max_rel_diff)}`,
    n.aa_paired_after && `after ${pct(n.aa_paired_after.max_rel_diff)}`,
  ].filter(Boolean);
  const pairedText = paired.length
    ? `; paired A/A noise: ${paired.join(', ')}${n.aa_paired_before && n.aa_paired_after ? ' (the ratio threshold)' : ''}`
    : '';
  const shift = n.run_shift
    ? `; run shift ${change(n.run_shift.ratio)} (${s.code(n.run_shift.cell)}), absolute threshold ${pct(n.absolute_threshold ?? n.threshold)}`
    : '';
  return `${s.text(n.subject)}: ${pct(n.threshold)} (--threshold ${pct(n.option)}; A/A noise: ${aa.length ? aa.join(', ') : 'not measured'}${pairedText}${shift})`;
}

/** Keys (a), (b), ... for the reasons of unlabelled cells, so long reasons stay out of the table. */
export function reasonKeys(cells: CellComparison[]): Map<string, string> {
  const keys = new Map<string, string>();
  for (const c of cells) {
    if (c.speed.label !== 'unavailable' || keys.has(c.speed.why)) continue;
    const i = keys.size;
    keys.set(c.speed.why, String.fromCharCode(97 + (i % 26)) + (i >= 26 ? String(Math.floor(i / 26)) : ''));
  }
  return keys;
}

/** Status and reason of a side, for the status-change list. */
export function statusText(side: CellComparison['before'], s: Sink = PLAIN_TEXT): string {
  if (!side) return 'absent';
  return side.reason ? `${side.status} (${s.text(side.reason)})` : side.status;
}

/** The sentence explaining the † marker, when any cell used the range rule. */
export const RANGE_NOTE =
  '† range rule: a file has no raw samples, so the label compares process-median ranges (docs/compare.md), not a bootstrap interval.';

/** `id: before: work: differs (...); after: on torch 2.0.1` for every cell with annotations on either side. */
export function annotatedLines(c: Comparison, s: Sink = PLAIN_TEXT): string[] {
  return c.cells.flatMap((x) => {
    const sides = (
      [
        ['before', x.before],
        ['after', x.after],
      ] as const
    ).filter(([, side]) => side?.annotations?.length);
    return sides.length
      ? [
          `${s.code(x.id)}: ${sides.map(([name, side]) => `${name}: ${side!.annotations!.map(s.text).join('; ')}`).join('; ')}`,
        ]
      : [];
  });
}

/**
 * `id: ok -> error (reason)` for every cell whose status changed. Each writer draws its own arrow (`→` in
 * markdown, `->` on a terminal), so the arrow is the caller's.
 */
export function statusChangeLines(c: Comparison, arrow: string, s: Sink = PLAIN_TEXT): string[] {
  return c.cells
    .filter((x) => x.status_changed)
    .map((x) => `${s.code(x.id)}: ${statusText(x.before, s)} ${arrow} ${statusText(x.after, s)}`);
}

/** `id: bit -> close` for every cell whose exactness changed, `worse` after the ones that got worse. */
export function exactnessChangeLines(c: Comparison, arrow: string, worse: string, s: Sink = PLAIN_TEXT): string[] {
  return c.cells.flatMap((x) => {
    const e = x.exactness;
    return e ? [`${s.code(x.id)}: ${e.before ?? 'none'} ${arrow} ${e.after ?? 'none'}${e.worse ? worse : ''}`] : [];
  });
}
