// The answer a run ends with: per page row, each tool's median, spread, ratios to raw and to the
// reference, exactness and work marks, then where the reports are. Pure; `run` prints it.
import type { CellResult } from '../results/model.ts';
import {
  cellIndex,
  formatPublished,
  publishedRatio,
  ratioTo,
  sibling,
  toolTaxes,
  type ToolTax,
} from '../results/published.ts';
import { firstLine, formatMs, formatPercent } from './format.ts';
import { resolvePage, type PageEntryView, type ReportInput } from './page.ts';
import { fitLine, padColumns, wrap, wrapLine } from '../util/width.ts';
import { oneLineAnswers, renderAnswers, type AnswerBlock } from './answer.ts';
import { renderStability, stabilityOf, type Stability } from './stability.ts';
import { forTerminal, mapStrings } from '../util/escape.ts';
import { formatTax } from './pairing-parts.ts';
import { precisionOf, renderPrecision, type PrecisionSummary } from './precision.ts';
import { growthFamilies, type GrowthFamily } from './growth.ts';
import { growthLines } from './growth-text.ts';

/** One tool's line of the summary; the same object `run --json` prints. */
export interface SummaryEntry {
  cell: string;
  tool: string;
  status: 'ok' | 'unsupported' | 'error' | 'missing';
  median_ms: number | null;
  /** (max - min) / median of the per-process medians; null with one process or no timing. */
  spread: number | null;
  /**
   * The cell's cost over the plain forward (src/results/published.ts): its paired ratio (timed against the
   * `raw` baseline in its own processes, after the tool's import); else the ratio of its median to the
   * `raw` cell's (unpaired). Null for the raw cell itself and where neither exists.
   */
  ratio_to_raw: number | null;
  /** The 95% interval of a paired ratio (with the run-to-run component); null when unpaired or absent. */
  ratio_to_raw_ci: [number, number] | null;
  /** The cell's import tax against its row's control (src/results/control.ts) and its 95% interval; null when unpaired. */
  import_tax: number | null;
  import_tax_ci: [number, number] | null;
  /** Whether `ratio_to_raw` is paired; null without a ratio. */
  paired: boolean | null;
  /** Why the ratio is unpaired (null when paired or absent). */
  unpaired: string | null;
  /** The cell against the group's reference tool's cell: the ratio of their paired ratios when both have one, else of their medians. */
  ratio_to_reference: number | null;
  exact: CellResult['exact'] | null;
  /** True when the cell's work witnesses say it did not do the contract's work (`work.differs` not empty). */
  work_differs: boolean;
  /** How, in words (e.g. "stops at the site"); empty when it does the contract's work. */
  work_differences: string[];
  /** Why the cell was not measured, first line. */
  reason: string | null;
}

/** One row of the page. */
export interface SummaryRow {
  section: string;
  label: string;
  entries: SummaryEntry[];
}

/** Failed cells that share one cause: the cause once, in full, and the cells. */
export interface FailureGroup {
  reason: string;
  cells: string[];
  /** Cells whose other processes were not started, because the failure repeats in every process. */
  stopped_early: string[];
}

/** The whole summary: rows, counts and report files. */
export interface Summary {
  rows: SummaryRow[];
  /** Each failure's cause in full (the rows cut it to the line), with its cells. */
  failures: FailureGroup[];
  /** The run's own noise, and whether it is too loud to read (src/report/stability.ts). */
  stability: Stability;
  /** One line per tool for each group's main row (src/report/answer.ts). */
  answers: AnswerBlock[];
  /** Per tool, its import tax over its paired cells (baseline after the tool's import / before it). */
  import_tax: ToolTax[];
  /** With a precision target: how many cells met it, and the ones that did not; null without one. */
  precision: PrecisionSummary | null;
  /** How each tool's time and overhead grow over each swept subject family (src/report/growth.ts); empty without sweeps. */
  growth: GrowthFamily[];
  /** off_page: measured cells the page does not show (the report lists them). */
  counts: { cells: number; ok: number; error: number; unsupported: number; off_page: number };
  partial: boolean;
  reports: string[];
}

/**
 * A results cell as the contracts branch extends it (`work.differs`: the ways the cell's work differs
 * from the contract's, empty when it does not); read structurally so files without it still load.
 */
interface MaybeWork {
  work?: { differs?: string[]; status?: string } | null;
}

/** The ways a cell's work differs from its contract's, from its work witnesses; empty when none or unknown. */
function workDifferences(c: CellResult): string[] {
  const work = (c as CellResult & MaybeWork).work;
  if (!work) return [];
  if (Array.isArray(work.differs)) return work.differs.map(String);
  return work.status === 'differs' ? ['differs'] : [];
}

/** Builds the summary of a results model (page rows from the spec when it has a page). */
export function buildSummary(input: ReportInput, reports: string[]): Summary {
  const { results, spec } = input;
  const cells = cellIndex(results);
  const entry = (e: PageEntryView): SummaryEntry => {
    const c = e.result;
    if (!c)
      return {
        cell: e.cell,
        tool: e.toolLabel,
        status: 'missing',
        median_ms: null,
        spread: null,
        ratio_to_raw: null,
        ratio_to_raw_ci: null,
        import_tax: null,
        import_tax_ci: null,
        paired: null,
        unpaired: null,
        ratio_to_reference: null,
        exact: null,
        work_differs: false,
        work_differences: [],
        reason: 'not measured',
      };
    const reference = spec?.groups.find((g) => g.id === c.group)?.reference;
    const spread =
      c.median_ms && c.min_ms !== null && c.max_ms !== null && (c.processes ?? 0) > 1
        ? (c.max_ms - c.min_ms) / c.median_ms
        : null;
    const raw = publishedRatio(c, cells);
    return {
      cell: c.id,
      tool: e.toolLabel,
      status: c.status,
      median_ms: c.median_ms,
      spread,
      ratio_to_raw: raw?.ratio ?? null,
      ratio_to_raw_ci: raw?.paired && raw.low !== null && raw.high !== null ? [raw.low, raw.high] : null,
      import_tax: c.import_tax?.ratio ?? null,
      import_tax_ci: c.import_tax ? c.import_tax.ci95 : null,
      paired: raw ? raw.paired : null,
      unpaired: raw?.why ?? null,
      ratio_to_reference:
        reference && c.tool !== reference ? (ratioTo(c, sibling(c, reference, cells), cells)?.ratio ?? null) : null,
      exact: c.exact ?? null,
      work_differs: workDifferences(c).length > 0,
      work_differences: workDifferences(c),
      reason: c.status === 'ok' ? null : firstLine(c.reason ?? c.error?.message) || null,
    };
  };
  const rows: SummaryRow[] = [];
  const page = resolvePage(input);
  for (const section of page.sections) {
    // Entries whose cell the results lack were not selected (--only): the summary is about this run.
    for (const e of section.entries.filter((x) => x.result !== null)) {
      const last = rows[rows.length - 1];
      if (last && last.section === section.title && last.label === e.rowLabel) last.entries.push(entry(e));
      else rows.push({ section: section.title, label: e.rowLabel, entries: [entry(e)] });
    }
  }
  const count = (s: string) => results.cells.filter((c) => c.status === s).length;
  return {
    rows,
    failures: failureGroups(results),
    stability: stabilityOf(results),
    answers: oneLineAnswers(results, spec),
    import_tax: toolTaxes(results.cells),
    precision: precisionOf(results),
    growth: growthFamilies(results),
    counts: {
      cells: results.cells.length,
      ok: count('ok'),
      error: count('error'),
      unsupported: count('unsupported'),
      off_page: page.appendix.length,
    },
    partial: results.partial,
    reports,
  };
}

/** The run's failed cells grouped by their cause's first line, in file order. */
function failureGroups(results: ReportInput['results']): FailureGroup[] {
  const early = new Set(((results.run?.stopped_early ?? []) as { cell: string }[]).map((s) => s.cell));
  const groups = new Map<string, FailureGroup>();
  for (const c of results.cells.filter((x) => x.status === 'error')) {
    const reason = firstLine(c.reason ?? c.error?.message) || 'failed without a reason';
    const g = groups.get(reason) ?? { reason, cells: [], stopped_early: [] };
    g.cells.push(c.id);
    if (early.has(c.id)) g.stopped_early.push(c.id);
    groups.set(reason, g);
  }
  return [...groups.values()];
}

/** The failures as text: each cause in full, wrapped, then its cells. */
function renderFailures(groups: FailureGroup[], width: number): string[] {
  if (groups.length === 0) return [];
  const n = groups.reduce((k, g) => k + g.cells.length, 0);
  const lines = [
    '',
    `Failed (${n} cell${n === 1 ? '' : 's'}, ${groups.length} cause${groups.length === 1 ? '' : 's'}):`,
  ];
  for (const g of groups) {
    lines.push(...wrap(g.reason, width - 2).map((l, i) => (i === 0 ? '- ' : '  ') + l));
    const shown = g.cells.slice(0, 6).join(', ') + (g.cells.length > 6 ? `, and ${g.cells.length - 6} more` : '');
    lines.push(
      ...wrap(`${g.cells.length === 1 ? 'cell' : `${g.cells.length} cells`}: ${shown}`, width - 4).map(
        (l) => `    ${l}`,
      ),
    );
    if (g.stopped_early.length)
      lines.push(
        ...wrap(
          `this error repeats in every process: ${g.stopped_early.length === g.cells.length ? 'these cells' : `${g.stopped_early.length} of them`} ran no further processes (no A/A, memory or other timing processes).`,
          width - 4,
        ).map((l) => `    ${l}`),
      );
  }
  return lines;
}

const LEGEND = [
  'median: the median of the per-process medians, per call; spread: (max - min) / median of the per-process medians.',
  "x raw: the cost over the plain forward, timed in alternation with it in the same processes after the tool's import (paired), with a 95% interval that also holds what the next run may differ by; 'unpaired': the ratio of two sets of processes' medians (why: below). x ref: the same against the group's reference tool.",
  "tax: the import tax, what importing and using the tool does to the plain forward in its processes, against the row's control (1.00x: nothing); '*' where its interval excludes 1.00. Its own figure: x raw does not include it.",
  "exact: against the group's reference (bit, close, mismatch; degraded: a reduced-precision cell that agrees at float32, so it differs only by precision; vacuous: the write does not move the output, so agreement proves nothing); 'work: differs': the tool did not do the contract's work.",
];

const COLUMNS = [
  ['median', 10],
  ['spread', 7],
  ['x raw', 18],
  ['tax', 7],
  ['x ref', 7],
  ['exact', 8],
] as const;

/** The summary as text lines no wider than `width` (tool labels are cut to fit, with an ellipsis). */
export function renderSummary(raw: Summary, width: number): string {
  const s = mapStrings(raw, forTerminal);
  const numbers = COLUMNS.reduce((n, [, w]) => n + w + 1, 0);
  const marks = s.rows.some((r) => r.entries.some((e) => e.work_differs)) ? ' work: differs'.length : 0;
  const toolWidth = Math.max(8, Math.min(40, width - 2 - numbers - marks));
  const head = `  ${'tool'.padEnd(toolWidth)} ${COLUMNS.map(([h, w]) => h.padStart(w)).join(' ')}`;
  const lines: string[] = [];
  let section = '';
  for (const row of s.rows) {
    if (row.section !== section) lines.push('', row.section, head);
    section = row.section;
    lines.push(row.label);
    for (const e of row.entries) lines.push(entryLine(e, toolWidth));
  }
  const { cells, ok, error, unsupported } = s.counts;
  lines.push(
    ...renderFailures(s.failures, width),
    '',
    ...LEGEND.flatMap((l) => wrap(l, width)),
    ...pairingLines(s, width),
    ...renderPrecision(s.precision, width),
    ...wrap(
      `${cells} cells: ${ok} ok, ${error} error, ${unsupported} unsupported${s.partial ? ' (partial run)' : ''}.${s.counts.off_page ? ` ${s.counts.off_page} of them are not on the page; the report lists them.` : ''}`,
      width,
    ),
  );
  const noise = renderStability(s.stability);
  if (noise.length) lines.push('', ...noise.flatMap((l) => wrap(l, width)));
  const growth = growthLines(s.growth);
  if (growth.length) lines.push('', ...growth.flatMap((l) => wrapLine(l, width)));
  // The answer comes last, after the noise it is to be read against, as hyperfine ends with its summary.
  const answers = renderAnswers(s.answers, (id) => id);
  if (answers.length) lines.push('', ...answers);
  lines.push(...s.reports.map((r, i) => `${i === 0 ? 'Open the report: ' : '                 '}${r}`));
  return lines.map((l) => fitLine(l, width).trimEnd()).join('\n') + '\n';
}

/** Why the unpaired ratios are unpaired (each reason once), then each tool's import tax. */
function pairingLines(s: Summary, width: number): string[] {
  const why = new Map<string, number>();
  for (const e of s.rows.flatMap((r) => r.entries)) if (e.unpaired) why.set(e.unpaired, (why.get(e.unpaired) ?? 0) + 1);
  const lines = [...why].flatMap(([reason, n]) => wrap(`unpaired (${n} cell${n === 1 ? '' : 's'}): ${reason}.`, width));
  if (s.import_tax.length > 0) {
    const taxes = s.import_tax
      .map((t) => `${t.tool} ${formatTax(t)}${t.low > 1 ? ' slows torch' : t.high < 1 ? ' speeds torch up' : ''}`)
      .join(', ');
    const control = s.import_tax.every((t) => t.controlled === t.cells)
      ? "against each row's control"
      : s.import_tax.some((t) => t.controlled > 0)
        ? "against each row's control where one ran"
        : 'uncontrolled: no control ran';
    // Said as the mean of the rows' taxes, so a reader does not take it for one more row's figure beside the tax column.
    lines.push(
      ...wrap(
        `Import tax per tool, the mean over its rows of the tax column (the plain forward after its import over before it, ${control}, 95% interval): ${taxes}.`,
        width,
      ),
    );
  }
  return lines;
}

function entryLine(e: SummaryEntry, toolWidth: number): string {
  const tool = `  ${padColumns(fitLine(e.tool, toolWidth), toolWidth)} `;
  if (e.status !== 'ok')
    return `${tool}${e.status === 'error' ? 'failed' : e.status === 'missing' ? 'not measured' : 'not run'}${e.reason && e.status !== 'missing' ? `: ${e.reason}` : ''}`;
  const x = (r: number | null) => (r === null ? '' : `${r.toFixed(2)}x`);
  const raw =
    e.ratio_to_raw === null
      ? ''
      : formatPublished({
          ratio: e.ratio_to_raw,
          low: e.ratio_to_raw_ci?.[0] ?? null,
          high: e.ratio_to_raw_ci?.[1] ?? null,
          paired: e.paired === true,
          why: e.unpaired,
        });
  const tax =
    e.import_tax === null
      ? ''
      : `${e.import_tax.toFixed(2)}x${e.import_tax_ci && (e.import_tax_ci[0] > 1 || e.import_tax_ci[1] < 1) ? '*' : ' '}`;
  const cols = [
    e.median_ms === null ? '' : formatMs(e.median_ms),
    e.spread === null ? '' : formatPercent(e.spread),
    raw,
    tax,
    x(e.ratio_to_reference),
    e.exact ?? '',
  ];
  return `${tool}${cols.map((v, i) => v.padStart(COLUMNS[i][1])).join(' ')}${e.work_differs ? ' work: differs' : ''}`;
}
