// What every report format says about pairing (docs/protocol.md, "Pairing"): which cells' ratios are
// unpaired and why, and each tool's import tax. Pure.
import type { Results } from '../results/model.ts';
import { toolTaxes, type ToolTax } from '../results/published.ts';
import type { PageEntryView } from './page.ts';

/** Whether a report shows the "x raw" column: every file but the seed's, whose page rows keep its own layout. */
export function showsRatios(results: Results): boolean {
  return results.origin !== 'seed';
}

/** Each distinct reason `reasonOf` gives for entries (null: the entry has none), with how many it covers, in order. */
function countReasons(entries: readonly PageEntryView[], reasonOf: (e: PageEntryView) => string | null): { reason: string; count: number }[] {
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
  if (reasons.length) out.push(`Unpaired ratios (the ratio of two sets of processes' medians, not timed together): ${list(reasons)}.`);
  const none = noBaselineReasons(entries);
  if (none.length) out.push(`No ratio to raw: ${list(none)}.`);
  return out.join(' ');
}

/** One row per tool and subject of the import tax table: tool, subject, tax with its interval, cells and processes. */
export function taxRows(results: Results): { tax: ToolTax; text: string[] }[] {
  return toolTaxes(results.cells).map((t) => ({
    tax: t,
    text: [t.tool, t.subject, `${t.ratio.toFixed(3)}x (${t.low.toFixed(3)}-${Number.isFinite(t.high) ? t.high.toFixed(3) : '?'})`, `${t.cells}`, `${t.processes}`, t.low > 1 ? 'yes' : 'no'],
  }));
}

/** What the import tax is, in one paragraph (markdown and HTML). */
export const TAX_SENTENCE = "The plain forward (the `raw` tool's function for each contract), timed in each paired process after the tool's import over the same forward timed before it: 1.000x when importing and using the tool leaves torch as fast as it was, 1.10x when every forward in the process became 10% slower. Where a tool's interval lies above 1 (in x raw: yes), each of its x raw ratios includes its cell's own tax; the others' do not need it (docs/protocol.md, Pairing).";

/** The sentence of files without paired timing (the seed, runs before pairing): their ratios are unpaired. */
export function noPairingSentence(results: Results): string {
  if (results.cells.some((c) => c.paired)) return '';
  return 'This file records no paired timing: any ratio to raw computed from it is unpaired (the medians of two sets of processes).';
}
