// The answer a run ends with: per page row, each tool's median, spread, ratios to raw and to the
// reference, exactness and work marks, then where the reports are. Pure; `run` prints it as
// summary-text.ts renders it.
import type { CellResult } from '../results/model.ts';
import { cellIndex, publishedRatio, ratioTo, sibling, toolTaxes, type ToolTax } from '../results/published.ts';
import { firstLine } from './format.ts';
import { resolvePage, type PageEntryView, type ReportInput } from './page.ts';
import { oneLineAnswers, type AnswerBlock } from './answer.ts';
import { stabilityOf, type Stability } from './stability.ts';
import { precisionOf, type PrecisionSummary } from './precision.ts';
import { growthFamilies, type GrowthFamily } from './growth.ts';

// The text rendering lives beside it; callers import both from here.
export { renderSummary } from './summary-text.ts';

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
