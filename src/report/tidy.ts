// The tidy table of a results file (`report --format csv|jsonl`, docs/report.md "Tidy exports"): one flat
// row per cell, one value per column, so that pandas, R or a spreadsheet loads it without code. Pure: the
// serialisers are src/report/tidy-text.ts.
import type { CellResult, CellWork } from '../results/model.ts';
import { cellIndex, hasInterval, publishedRatio, type CellIndex } from '../results/published.ts';
import { firstLine } from './format.ts';
import { toolVersion, type ReportInput } from './page.ts';

/** A value of the tidy table: numbers stay numbers; null is missing (an empty CSV field, JSON null). */
export type TidyValue = string | number | boolean | null;

/** The columns, in order; docs/report.md lists each with its meaning and unit (a test holds them equal). */
export const TIDY_COLUMNS = [
  'cell',
  'group',
  'contract',
  'tool',
  'subject',
  'sweep',
  'median_ms',
  'min_ms',
  'max_ms',
  'processes',
  'x_raw',
  'x_raw_low',
  'x_raw_high',
  'x_raw_paired',
  'import_tax',
  'import_tax_low',
  'import_tax_high',
  'status',
  'reason',
  'exact',
  'max_abs_diff',
  'top1_agreement',
  'tv_distance',
  'tokens_part_at',
  'effect_max_abs_diff',
  'effect_vacuous',
  'work',
  'work_differs',
  'peak_rss_bytes',
  'cuda_peak_bytes',
  'memory_grows_kib_per_call',
  'tool_version',
  'versions',
  'dtype',
  'device',
] as const;

/** A column's name. */
export type TidyColumn = (typeof TIDY_COLUMNS)[number];

/** One cell as a flat row. */
export type TidyRow = Record<TidyColumn, TidyValue>;

/** Every cell of the results, in file order, as a tidy row: cells that did not run included, with their reason. */
export function tidyRows(input: ReportInput): TidyRow[] {
  const index = cellIndex(input.results);
  return input.results.cells.map((c) => tidyRow(c, index, input));
}

function tidyRow(c: CellResult, index: CellIndex, input: ReportInput): TidyRow {
  const { name, sweep } = splitSweep(c.subject);
  const ratio = publishedRatio(c, index);
  // Only a paired ratio has a 95% interval; an unpaired one's process-median extremes are not one.
  const bounded = ratio?.paired && hasInterval(ratio) && ratio.low > 0 ? ratio : null;
  const tax = c.status === 'ok' ? (c.import_tax ?? null) : null;
  const taxBounded = tax && Number.isFinite(tax.ci95[1]) && tax.ci95[0] > 0;
  const meta = input.results.subjects[c.subject]?.meta ?? null;
  const ok = c.status === 'ok';
  return {
    cell: c.id,
    group: c.group,
    contract: c.contract,
    tool: c.tool,
    subject: name,
    sweep,
    median_ms: c.median_ms,
    min_ms: c.min_ms,
    max_ms: c.max_ms,
    processes: c.processes,
    x_raw: ratio?.ratio ?? null,
    x_raw_low: bounded ? bounded.low : null,
    x_raw_high: bounded ? bounded.high : null,
    x_raw_paired: ratio ? ratio.paired : null,
    import_tax: tax?.ratio ?? null,
    import_tax_low: taxBounded ? tax.ci95[0] : null,
    import_tax_high: taxBounded ? tax.ci95[1] : null,
    status: c.status,
    reason: firstLine(c.reason ?? c.error?.message) || null,
    exact: ok && c.exact !== undefined ? (c.exact ?? 'not compared') : null,
    max_abs_diff: c.max_abs_diff,
    top1_agreement: c.agreement?.top1_agreement ?? null,
    tv_distance: c.agreement?.tv_distance ?? null,
    tokens_part_at: c.agreement?.first_divergence ?? null,
    effect_max_abs_diff: c.effect?.max_abs_diff ?? null,
    effect_vacuous: c.effect ? c.effect.vacuous : null,
    work: witnessText(c.work ?? null),
    work_differs: c.work && c.work.differs.length > 0 ? c.work.differs.join('; ') : null,
    peak_rss_bytes: largest(c.memory?.peak_rss_bytes ?? []),
    cuda_peak_bytes: largest(c.memory?.cuda_peak_allocated_bytes ?? []),
    memory_grows_kib_per_call: growsKib(c),
    tool_version: toolVersion(c.tool, c, input) ?? null,
    versions: versionsText(c, input),
    dtype: meta?.model?.dtype ?? null,
    device: textOf(meta?.environment.device) ?? input.results.spec?.device ?? null,
  };
}

/**
 * A subject id's name and its sweep values: `gpt2@batch=8@seq=128` (or `,` between the pairs) is subject
 * `gpt2`, sweep `batch=8;seq=128`; an id without `@` has an empty sweep (null).
 */
export function splitSweep(subject: string): { name: string; sweep: string | null } {
  const at = subject.indexOf('@');
  if (at < 0) return { name: subject, sweep: null };
  const pairs = subject
    .slice(at + 1)
    .split(/[@,;]/)
    .filter((p) => p !== '');
  return { name: subject.slice(0, at), sweep: pairs.length > 0 ? pairs.join(';') : null };
}

/**
 * The work witnesses in one field: `forwards=1,parameter_grads=false,result_bytes=401408`, each distinct
 * witness set of the cell's timing processes once, in process order, joined by `;`; null without any.
 */
export function witnessText(work: CellWork | null): string | null {
  if (!work || work.witnesses.length === 0) return null;
  const texts = work.witnesses.map((w) =>
    Object.entries(w)
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
  );
  return [...new Set(texts)].join(';');
}

/**
 * The versions the cell ran with: its tool's library, then torch and Python, as `nnsight=0.8.1;torch=2.13.0;
 * python=3.10.19`; the cell's own runtime first, else its subject's record, else the file's. Null when none is known.
 */
function versionsText(c: CellResult, input: ReportInput): string | null {
  const { results } = input;
  const meta = results.subjects[c.subject]?.meta;
  const library = input.libraries[c.tool] ?? c.tool;
  const pairs: [string, string | null | undefined][] = [
    [library, toolVersion(c.tool, c, input)],
    ['torch', c.runtime?.torch ?? meta?.versions.torch ?? results.versions.torch],
    ['python', c.runtime?.python ?? textOf(meta?.environment.python) ?? results.versions.python],
  ];
  const seen = new Set<string>();
  const out = pairs.filter(([k, v]) => v && !seen.has(k) && seen.add(k)).map(([k, v]) => `${k}=${v}`);
  return out.length > 0 ? out.join(';') : null;
}

/** The cell's memory growth mark in KiB per call (on CUDA the GPU's, which is judged first), else null. */
function growsKib(c: CellResult): number | null {
  const mark = c.memory_growth?.grows[0];
  return mark ? Math.round(mark.per_call_bytes / 1024) : null;
}

function largest(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length > 0 ? Math.max(...known) : null;
}

function textOf(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}
