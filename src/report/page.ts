// The results page, resolved: the spec's page rows (or a generic page) against a results model. Pure.
import type { CellResult, Results } from '../results/model.ts';
import type { Spec } from '../spec/types.ts';
import { cellAnnotations } from '../results/annotations.ts';
import { cellRange, firstLine, mdCell } from './format.ts';
import { BASELINE_TOOL } from '../plan/pairing.ts';
import { subjectTitle } from './subject.ts';
import { cellIndex, formatPublished, publishedRatio, type CellIndex, type Published } from '../results/published.ts';
import { cellTaxText } from './pairing-parts.ts';

/** What every renderer gets: the results, the spec when one was given, and each tool's library. */
export interface ReportInput {
  results: Results;
  spec: Spec | null;
  /** Tool id -> the library whose version `{version}` in its labels stands for (from the runner manifests). */
  libraries: Record<string, string | null>;
}

/** How a page entry's cell turned out. */
export type EntryState = 'measured' | 'error' | 'unsupported' | 'missing';

/** One line of the page: a cell under its row label and tool label. */
export interface PageEntryView {
  cell: string;
  tool: string;
  /** The row label as the spec gives it, without the `, n=3 processes` suffix. */
  rowLabel: string;
  /** The row label as shown: with `, n=<processes> processes` when the cell was measured. */
  label: string;
  toolLabel: string;
  kind: EntryState;
  /** `2.30 ms (2.29 ms to 2.34 ms)` (then `; work: differs (...)`, `; on torch 2.0.1`, `; note: ...`), `fails: ...`, `not run: ...` or `not measured`. */
  value: string;
  /** The markdown table row in the seed layout: `| label | tool label | value |`. */
  text: string;
  /** The cost over the plain forward (src/results/published.ts); null where there is none. */
  ratio: Published | null;
  /** `1.24x (1.20-1.28)`, `1.24x unpaired`, `baseline` for the raw cell itself, `no baseline`, or empty. */
  ratioText: string;
  /** Why a measured tool cell has no ratio at all (no raw cell to be timed against); null otherwise. */
  noBaseline: string | null;
  /** The cell's import tax, `1.00x (0.98-1.02)` (`uncontrolled` where no control ran), or empty. */
  taxText: string;
  /** The cell, when the results have it. */
  result: CellResult | null;
}

/** One section of the page. */
export interface PageSectionView {
  id: string;
  title: string;
  entries: PageEntryView[];
}

/** The resolved page. */
export interface PageView {
  /** Whether the sections come from the spec's `page`, or are the generic one per group and subject. */
  fromSpec: boolean;
  sections: PageSectionView[];
  /** Cells of the results that no page entry shows, in file order. */
  appendix: CellResult[];
  /** Page entries whose cell the results do not have. */
  missing: string[];
}

/** Resolves the page: the spec's sections when it has any, else one section per group and subject. */
export function resolvePage(input: ReportInput): PageView {
  const { results, spec } = input;
  const byId = cellIndex(results);
  if (!spec || spec.page.length === 0) return genericPage(input);
  const shown = new Set<string>();
  const missing: string[] = [];
  const sections = spec.page.map((sec) => ({
    id: sec.id,
    title: sec.title,
    entries: sec.rows.flatMap((row) =>
      row.entries.map((e) => {
        const c = byId.get(e.cell) ?? null;
        shown.add(e.cell);
        if (!c) missing.push(e.cell);
        return entryView(
          e.cell,
          e.tool,
          row.label,
          fillVersion(e.label, e.tool, c, input),
          c,
          e.explain,
          c ? cellAnnotations(c, results) : [],
          byId,
        );
      }),
    ),
  }));
  return { fromSpec: true, sections, appendix: results.cells.filter((c) => !shown.has(c.id)), missing };
}

/** Without a page: one section per group and subject, cells in file order, labelled by their ids. */
function genericPage(input: ReportInput): PageView {
  const sections = new Map<string, PageSectionView>();
  const byId = cellIndex(input.results);
  for (const c of input.results.cells) {
    const key = `${c.group}/${c.subject}`;
    if (!sections.has(key)) {
      const g = input.spec?.groups.find((x) => x.id === c.group);
      const subject = subjectTitle(
        input.spec?.subjects[c.subject]?.label ?? c.subject,
        input.results.subjects[c.subject]?.meta?.model,
      );
      sections.set(key, { id: key, title: `${c.group}${g?.title ? `: ${g.title}` : ''} / ${subject}`, entries: [] });
    }
    sections
      .get(key)!
      .entries.push(entryView(c.id, c.tool, c.contract, c.tool, c, [], cellAnnotations(c, input.results), byId));
  }
  return { fromSpec: false, sections: [...sections.values()], appendix: [], missing: [] };
}

function entryView(
  cell: string,
  tool: string,
  rowLabel: string,
  toolLabel: string,
  c: CellResult | null,
  explain: { match: string; text: string }[],
  annotations: string[],
  cells: CellIndex,
): PageEntryView {
  let kind: EntryState;
  let value: string;
  let label = rowLabel;
  const range = c && c.status === 'ok' ? cellRange(c) : null;
  if (c && range !== null) {
    kind = 'measured';
    // Work differences, another torch and adapter notes follow the figure they qualify (none for the seed layout).
    value = [range, ...annotations].join('; ');
    if (c.processes !== null) label = `${rowLabel}, n=${c.processes} processes`;
  } else if (c && c.status === 'error') {
    kind = 'error';
    value = `fails: ${explanation(c, explain) || 'no reason recorded'}`;
  } else if (c && c.status === 'unsupported') {
    kind = 'unsupported';
    value = `not run: ${explanation(c, explain) || 'no reason recorded'}`;
  } else {
    // Absent from the results (a partial run, or a page entry the run did not select), or ok without timing.
    kind = 'missing';
    value = 'not measured';
  }
  const text = `| ${mdCell(label)} | ${mdCell(toolLabel)} | ${mdCell(value)} |`;
  const ratio = c ? publishedRatio(c, cells) : null;
  const baseline = kind === 'measured' && c?.tool === BASELINE_TOOL;
  // A measured tool cell with no ratio at all has no raw cell to be timed against (the spec reasons raw out
  // of the contract): the column says so rather than staying blank, and the note under the table says why.
  const noBaseline = kind === 'measured' && !baseline && !ratio ? (c?.unpaired ?? null) : null;
  const ratioText = baseline ? 'baseline' : noBaseline ? 'no baseline' : formatPublished(ratio);
  return {
    cell,
    tool,
    rowLabel,
    label,
    toolLabel,
    kind,
    value,
    text,
    result: c,
    ratio,
    ratioText,
    noBaseline,
    taxText: kind === 'measured' ? cellTaxText(c) : '',
  };
}

/** The first `explain` text whose `match` occurs in the cell's reason, else the reason's first line. */
export function explanation(c: CellResult, explain: { match: string; text: string }[]): string {
  const reason = c.reason ?? c.error?.message ?? '';
  const hit = explain.find((x) => reason.includes(x.match));
  return hit ? hit.text : firstLine(reason);
}

/**
 * Replaces `{version}` in a tool label with its library's version: the cell's own `tool_version`, else
 * the file's `versions`, else the subject's `meta.versions` (where the seed layout keeps Captum's).
 */
export function fillVersion(label: string, tool: string, c: CellResult | null, input: ReportInput): string {
  if (!label.includes('{version}')) return label;
  return label.replace(/\{version\}/g, toolVersion(tool, c, input) ?? '(version unknown)');
}

/** The version of a tool's library for a cell, looked up as fillVersion says; undefined when the file has none. */
export function toolVersion(tool: string, c: CellResult | null, input: ReportInput): string | undefined {
  const { results } = input;
  const subject = c?.subject ?? Object.keys(results.subjects)[0];
  const meta = results.subjects[subject]?.meta?.versions ?? {};
  // Package names and import names differ in dashes (transformer-lens, transformer_lens).
  const library = input.libraries[tool] ?? tool;
  const names = [library, library.replace(/-/g, '_'), library.replace(/_/g, '-')];
  return (
    c?.tool_version ??
    names.map((n) => results.versions[n] ?? meta[n]).find((v): v is string => typeof v === 'string' && v !== '')
  );
}

/** A tool's display label: the spec's with `{version}` filled, else its id. */
export function toolLabel(input: ReportInput, tool: string, c: CellResult | null): string {
  const label = input.spec?.tools[tool]?.label;
  return label ? fillVersion(label, tool, c, input) : tool;
}
