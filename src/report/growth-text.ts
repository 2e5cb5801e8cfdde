// The growth families (src/report/growth.ts) in words: a few lines per family for the terminal, a table per
// family for the markdown page. Pure.
import { BASELINE_TOOL } from '../plan/pairing.ts';
import { formatPublished } from '../results/published.ts';
import type { GrowthFit, GrowthVerdict } from '../stats/growth.ts';
import { padColumns, visibleLength } from '../util/width.ts';
import { formatMs, mdCell } from './format.ts';
import {
  growthMemory,
  memoryPeaks,
  type GrowthCell,
  type GrowthFamily,
  type GrowthMemory,
  type GrowthSeries,
} from './growth.ts';

/** What each verdict tells a reader, after "overhead". */
export const VERDICT_WORDS: Record<GrowthVerdict, string> = {
  constant: 'constant',
  'like the forward': 'grows like the forward',
  faster: 'grows faster than the forward',
  slower: 'grows slower than the forward',
  shrinks: 'shrinks',
  'cannot tell': 'cannot tell',
  none: 'none above the forward',
};

/** The sentence under the growth figures, on every format that shows them. */
export const GROWTH_SENTENCE =
  "Exponent k of t ~ x^k: the least-squares slope of log time on log x over every process of every value, with its 95% t interval (residuals hold both the processes' spread and any bend away from a power law; two values give no interval). Overhead: the tool's time minus the plain forward's (raw: timed in the same processes where the cell paired, else its median), where positive. Its verdict: constant (its interval holds 0, not raw's exponent), grows like the forward (it holds raw's exponent, not 0), faster or slower than the forward (it lies above raw's exponent, or between 0 and it), shrinks (it lies below 0), cannot tell (it holds both, or has no interval). Memory: the largest peak of the cell's memory processes (on CUDA the allocator's, else the process's RSS, the interpreter and imports included), at each value (the terminal: the first and the last).";

/** `tiny over seq (16-256)`, with the other values the family shares and its group and contract. */
export function familyTitle(f: GrowthFamily): string {
  return `${f.subject}${f.fixed ? ` (${f.fixed.replaceAll(';', ', ')})` : ''} over ${f.key} (${f.values[0]}-${f.values[f.values.length - 1]}), ${f.group} / ${f.contract}`;
}

/** `seq^0.98 (0.91 to 1.05)`, `seq^1.00 (2 values, no interval)`, or empty without a fit. */
export function formatFit(key: string, fit: GrowthFit | null): string {
  if (!fit) return '';
  const k = `${key}^${fixed(fit.exponent)}`;
  return fit.ci95
    ? `${k} (${fixed(fit.ci95[0])} to ${fixed(fit.ci95[1])})`
    : `${k} (${fit.points} values, no interval)`;
}

/** The families for the terminal: a heading per family, then a line per tool. */
export function growthLines(families: readonly GrowthFamily[]): string[] {
  if (families.length === 0) return [];
  const lines = ['Growth over swept subjects:'];
  for (const f of families) {
    lines.push(`  ${familyTitle(f)}`);
    const width = Math.max(...f.tools.map((s) => visibleLength(s.tool)));
    const memory = growthMemory(f);
    for (const s of f.tools)
      lines.push(`    ${padColumns(s.tool, width)}  ${seriesText(f.key, s)}${memory ? memorySuffix(s, memory) : ''}`);
  }
  lines.push(GROWTH_SENTENCE);
  return lines;
}

function seriesText(key: string, s: GrowthSeries): string {
  const time = s.time ? `t ~ ${formatFit(key, s.time)}` : 'no time fit (fewer than two measured values)';
  if (s.tool === BASELINE_TOOL || !s.verdict) return time;
  const overhead = s.overhead
    ? `overhead ~ ${formatFit(key, s.overhead)}: ${VERDICT_WORDS[s.verdict]}`
    : `overhead: ${VERDICT_WORDS[s.verdict]}`;
  return `${time}; ${overhead}`;
}

/** `; peak RSS 300.0 -> 341.2 MiB`: the memory at the first and the last value measured; nothing without any. */
function memorySuffix(s: GrowthSeries, memory: GrowthMemory): string {
  const peaks = s.cells.map((c) => largest(memoryPeaks(c, memory))).filter((b): b is number => b !== null);
  if (peaks.length === 0) return '';
  const last = peaks.length > 1 ? ` -> ${mib(peaks[peaks.length - 1])}` : '';
  return `; ${memory.label} ${mib(peaks[0])}${last} MiB`;
}

/** The markdown `## Growth` section: a table per family (rows tools, columns the swept values), then the sentence. */
export function growthMarkdown(families: readonly GrowthFamily[]): string[] {
  if (families.length === 0) return [];
  const out = ['## Growth', ''];
  for (const f of families) {
    out.push(`### ${mdCell(familyTitle(f))}`, '');
    const { head, rows } = growthTableRows(f);
    out.push(`| ${head.map(mdCell).join(' | ')} |`, `|${' --- |'.repeat(head.length)}`);
    for (const row of rows) out.push(`| ${row.map(mdCell).join(' | ')} |`);
    out.push('');
  }
  out.push(mdCell(GROWTH_SENTENCE), '');
  return out;
}

/** A family's table as plain text (each format escapes it): rows tools, columns the values, then the fits and the verdict. */
export function growthTableRows(f: GrowthFamily): { head: string[]; rows: string[][] } {
  const memory = growthMemory(f);
  const head = [
    'Tool',
    ...f.values.map((v) => `${f.key}=${v}`),
    'Time exponent (95% CI)',
    'Overhead exponent (95% CI)',
    'Overhead',
    ...(memory ? [`${upperFirst(memory.label)} (MiB)`] : []),
  ];
  const rows = f.tools.map((s) => [
    s.tool,
    ...s.cells.map(pointText),
    formatFit(f.key, s.time),
    formatFit(f.key, s.overhead),
    s.verdict ? VERDICT_WORDS[s.verdict] : '',
    ...(memory ? [memoryColumn(s, memory)] : []),
  ]);
  return { head, rows };
}

/** `2.10 ms, 1.24x (1.20-1.28)`: the median and x raw at one value; why not, for a cell that did not run. */
function pointText(c: GrowthCell | null): string {
  if (!c) return 'not measured';
  if (c.status !== 'ok' || c.median_ms === null) return c.status === 'error' ? 'failed' : 'not run';
  return c.x_raw ? `${formatMs(c.median_ms)}, ${formatPublished(c.x_raw)}` : formatMs(c.median_ms);
}

/** `300.0 / 310.2 / 341.2`: the largest peak at each value, `—` where none was recorded. */
function memoryColumn(s: GrowthSeries, memory: GrowthMemory): string {
  return s.cells
    .map((c) => largest(memoryPeaks(c, memory)))
    .map((b) => (b === null ? '—' : mib(b)))
    .join(' / ');
}

function largest(xs: readonly number[]): number | null {
  return xs.length > 0 ? Math.max(...xs) : null;
}

function mib(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function upperFirst(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function fixed(k: number): string {
  // -0.00 reads as a sign where there is none.
  const s = k.toFixed(2);
  return s === '-0.00' ? '0.00' : s;
}
