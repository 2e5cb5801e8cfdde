// What every report format says about pairing (docs/protocol.md, "Pairing"): which cells' ratios are
// unpaired and why, and each tool's import tax. Pure.
import { SEED_LAYOUT, type CellResult, type Results } from '../results/model.ts';
import { toolTaxes, type ToolTax } from '../results/published.ts';
import type { PageEntryView } from './page.ts';

/** Whether a report shows the "x raw" column: every file but a seed-layout one, whose page rows keep their own layout. */
export function showsRatios(results: Results): boolean {
  return results.origin !== SEED_LAYOUT;
}

/** Each distinct reason `reasonOf` gives for entries (null: the entry has none), with how many it covers, in order. */
function countReasons(
  entries: readonly PageEntryView[],
  reasonOf: (e: PageEntryView) => string | null,
): { reason: string; count: number }[] {
  const out = new Map<string, number>();
  for (const e of entries) {
    const reason = reasonOf(e);
    if (reason) out.set(reason, (out.get(reason) ?? 0) + 1);
  }
  return [...out].map(([reason, count]) => ({ reason, count }));
}

/** Each distinct reason why entries' ratios are unpaired, with how many entries it covers, in order. */
export function unpairedReasons(entries: readonly PageEntryView[]): { reason: string; count: number }[] {
  return countReasons(entries, (e) => (e.kind === 'measured' && e.ratio && !e.ratio.paired ? e.ratio.why : null));
}

/** Each distinct reason why measured entries have no ratio to raw at all (no baseline cell), with counts. */
export function noBaselineReasons(entries: readonly PageEntryView[]): { reason: string; count: number }[] {
  return countReasons(entries, (e) => e.noBaseline);
}

/** The sentences under a table: why its unpaired ratios are unpaired, and why some rows have none; '' when neither. */
export function unpairedSentence(entries: readonly PageEntryView[]): string {
  const list = (rs: { reason: string; count: number }[]) => rs.map((r) => `${r.reason} (${r.count})`).join('; ');
  const out: string[] = [];
  const reasons = unpairedReasons(entries);
  if (reasons.length)
    out.push(`Unpaired ratios (the ratio of two sets of processes' medians, not timed together): ${list(reasons)}.`);
  const none = noBaselineReasons(entries);
  if (none.length) out.push(`No ratio to raw: ${list(none)}.`);
  return out.join(' ');
}

/** What a tax's interval shows: `slows torch` above 1, `speeds torch up` below, `none shown` when it holds 1. */
export function taxVerdict(t: { low: number; high: number }): string {
  return t.low > 1 ? 'slows torch' : t.high < 1 ? 'speeds torch up' : 'none shown';
}

/** `1.004x (0.981-1.027)`, the tax of a tool or a cell. */
export function formatTax(t: { ratio: number; low: number; high: number }): string {
  return `${t.ratio.toFixed(3)}x (${t.low.toFixed(3)}-${Number.isFinite(t.high) ? t.high.toFixed(3) : '?'})`;
}

/** A cell's import tax as a table shows it, or '' where it has none (unpaired, the seed layout). */
export function cellTaxText(c: CellResult | null): string {
  const t = c?.import_tax;
  if (!t) return '';
  const text = `${t.ratio.toFixed(2)}x (${t.ci95[0].toFixed(2)}-${Number.isFinite(t.ci95[1]) ? t.ci95[1].toFixed(2) : '?'})`;
  return t.control === null || t.control === undefined ? `${text} uncontrolled` : text;
}

/** How many of the tools' taxes were judged against no control: the tables mark them. */
function uncontrolledNote(t: ToolTax): string {
  return t.controlled === t.cells ? 'yes' : t.controlled === 0 ? 'no' : `${t.controlled} of ${t.cells} cells`;
}

/** One row per tool and subject of the import tax table: tool, subject, tax with its interval, cells, processes, control, verdict. */
export function taxRows(results: Results): { tax: ToolTax; text: string[] }[] {
  return toolTaxes(results.cells).map((t) => ({
    tax: t,
    text: [t.tool, t.subject, formatTax(t), `${t.cells}`, `${t.processes}`, uncontrolledNote(t), taxVerdict(t)],
  }));
}

/** The import tax table's column headings, in the order of taxRows' text. */
export const TAX_HEADINGS = [
  'Tool',
  'Subject',
  'Import tax (95% CI)',
  'Cells',
  'Processes',
  'Against the control',
  'Shown',
];

/** What the import tax is, in one paragraph (markdown and HTML). */
export const TAX_SENTENCE =
  'What importing and using a tool does to torch for everyone in its process: the plain forward (the `raw` tool\'s function for each contract) timed after the tool\'s import over the same forward timed before it, divided by the same quotient in the row\'s control processes, which import nothing (so that "later in the process" cancels out). 1.000x when the tool leaves torch as fast as it was; 1.10x when every forward in its process became 10% slower. Its own figure, beside x raw, which never includes it (docs/protocol.md, "The control").';

/** The run-to-run component a results file's x raw intervals include, in words; '' when it records none. */
export function betweenRunSentence(results: Results): string {
  const m = results.run?.between_run as
    | { tau0?: unknown; sigma?: unknown; source?: unknown; runs?: unknown; cells?: unknown }
    | null
    | undefined;
  if (!m || typeof m.tau0 !== 'number' || typeof m.sigma !== 'number' || !results.cells.some((c) => c.paired))
    return '';
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const from =
    m.source === 'earlier runs'
      ? `learnt from ${Number(m.runs) - 1} earlier run${Number(m.runs) === 2 ? '' : 's'} of this spec on this machine (${m.cells} cells), shrunk towards the default`
      : 'the default of docs/performance.md (no two comparable runs of this spec on this machine to learn it from)';
  return `Each x raw interval holds the cell's own processes and a run-to-run component, what the next run on this machine may differ by: ${pct(m.tau0)} for every ratio plus ${pct(m.sigma)} times the share of the tool's time that is work of its own (1 - 1/ratio), ${from} (docs/protocol.md, "Between runs").`;
}

/** The sentence of files without paired timing (the seed layout, runs before pairing): their ratios are unpaired. */
export function noPairingSentence(results: Results): string {
  if (results.cells.some((c) => c.paired)) return '';
  return 'This file records no paired timing: any ratio to raw computed from it is unpaired (the medians of two sets of processes).';
}
