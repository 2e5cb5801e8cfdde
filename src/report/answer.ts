// The one-line answer per tool a run ends with, in the manner of hyperfine's closing summary: for each
// group's main row (its first contract measured in the run), `nnsight: 1.24x raw (1.20-1.28), bit`.
// Pure.
import { cellRatio, type CellRatio } from '../results/cell-ratio.ts';
import type { CellResult, Results } from '../results/model.ts';
import { cellIndex, hasInterval, publishedRatio, type CellIndex } from '../results/published.ts';
import type { Spec } from '../spec/types.ts';
import { firstLine } from './format.ts';

/** One tool's answer. */
export interface Answer {
  tool: string;
  cell: string;
  status: CellResult['status'];
  /** Over the block's base cell; null when either was not measured. */
  ratio: CellRatio | null;
  exact: CellResult['exact'] | null;
  work_differs: boolean;
  reason: string | null;
  /** The cell's import tax and interval, its own figure beside the ratio; null where it has none. */
  tax?: { ratio: number; low: number; high: number } | null;
}

/** The answers of one group's main row on one subject. */
export interface AnswerBlock {
  group: string;
  subject: string;
  contract: string;
  /** The row in words: the contract's label when the spec gives one. */
  label: string;
  /** The tool every ratio is taken to: `raw` where the row has it, else the group's reference. */
  base: string;
  answers: Answer[];
}

/** The main row of every group and subject of a run, each tool's answer in file order. */
export function oneLineAnswers(results: Results, spec: Spec | null): AnswerBlock[] {
  const blocks: AnswerBlock[] = [];
  const seen = new Set<string>();
  for (const first of results.cells) {
    const key = `${first.group}/${first.subject}`;
    if (seen.has(key)) continue;
    const block = mainRow(
      results.cells.filter((c) => c.group === first.group && c.subject === first.subject),
      spec,
    );
    if (block) {
      seen.add(key);
      blocks.push(block);
    }
  }
  return blocks;
}

/** The first contract of a group and subject whose base cell was measured, as a block; null when none was. */
function mainRow(cells: CellResult[], spec: Spec | null): AnswerBlock | null {
  const reference = spec?.groups.find((g) => g.id === cells[0]?.group)?.reference ?? null;
  // Built once per block: every tool's published ratio looks up its row's raw cell in it.
  const index = cellIndex(cells);
  for (const contract of new Set(cells.map((c) => c.contract))) {
    const row = cells.filter((c) => c.contract === contract);
    const base =
      row.find((c) => c.tool === 'raw' && c.status === 'ok') ??
      row.find((c) => c.tool === reference && c.status === 'ok');
    const others = row.filter((c) => c !== base && c.status !== 'unsupported');
    if (!base || others.length === 0) continue;
    return {
      group: base.group,
      subject: base.subject,
      contract,
      label: spec?.contracts[contract]?.label ?? contract,
      base: base.tool,
      answers: others.map((c) => ({
        tool: c.tool,
        cell: c.id,
        status: c.status,
        ratio: answerRatio(c, base, index),
        exact: c.exact ?? null,
        work_differs: (c.work?.differs.length ?? 0) > 0,
        reason: c.status === 'ok' ? null : firstLine(c.reason ?? c.error?.message) || null,
        tax:
          c.status === 'ok' && c.import_tax && Number.isFinite(c.import_tax.ci95[1])
            ? { ratio: c.import_tax.ratio, low: c.import_tax.ci95[0], high: c.import_tax.ci95[1] }
            : null,
      })),
    };
  }
  return null;
}

/**
 * A tool's answer over the row's base: over `raw`, the cell's published paired ratio where it paired (the
 * figure of every "x raw" column, src/results/published.ts); else the ratio of the two cells' medians.
 */
function answerRatio(c: CellResult, base: CellResult, index: CellIndex): CellRatio | null {
  const published = base.tool === 'raw' ? publishedRatio(c, index) : null;
  if (published?.paired) {
    // One process gives no interval over processes: the ratio alone, never "(0.00-Infinity)".
    const bounded = hasInterval(published) && published.low > 0;
    return {
      ratio: published.ratio,
      low: bounded ? published.low : null,
      high: bounded ? published.high : null,
      how: "paired: timed against raw in the tool's own processes, 95% interval over processes and between runs",
    };
  }
  return cellRatio(c, base);
}

/** `nnsight: 1.24x raw (1.20-1.28), bit`; a failed cell says so in a word. */
export function answerLine(a: Answer, base: string): string {
  if (a.status !== 'ok' || !a.ratio) return `${a.tool}: ${a.status === 'error' ? 'failed' : 'not measured'}`;
  const r = a.ratio;
  const interval = r.low !== null && r.high !== null ? ` (${r.low.toFixed(2)}-${r.high.toFixed(2)})` : '';
  const marks = [a.exact ?? null, a.work_differs ? 'work: differs' : null].filter((m): m is string => m !== null);
  // The import tax is said beside the ratio, never in it; in words only where its interval excludes 1.
  const tax = a.tax
    ? `; import tax ${a.tax.ratio.toFixed(2)}x (${a.tax.low.toFixed(2)}-${a.tax.high.toFixed(2)})${a.tax.low > 1 ? ', slows torch' : a.tax.high < 1 ? ', speeds torch up' : ''}`
    : '';
  return `${a.tool}: ${r.ratio.toFixed(2)}x ${base}${interval}${marks.length ? `, ${marks.join(', ')}` : ''}${tax}`;
}

/** The answers as text: a heading per block, then one line per tool. */
export function renderAnswers(blocks: AnswerBlock[], subjectLabel: (id: string) => string): string[] {
  return blocks.flatMap((b) => [
    `${b.group}, ${b.label}, on ${subjectLabel(b.subject)}: each tool over ${b.base}, 95% interval, exactness; its import tax`,
    ...b.answers.map((a) => `  ${answerLine(a, b.base)}`),
  ]);
}
