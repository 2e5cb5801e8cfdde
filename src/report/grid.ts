// The status matrix, one grid per group and subject (rows contracts, columns tools), for the terminal and HTML. Pure.
import type { CellResult } from '../results/model.ts';
import { cellAnnotations } from '../results/annotations.ts';
import { gcSignificant } from '../results/gc.ts';
import { degradedText, exactMark, firstLine, formatMs, vacuousText } from './format.ts';
import type { ReportInput } from './page.ts';
import { expandToolList } from '../spec/versions.ts';
import { cellIndex, publishedRatio, type CellIndex } from '../results/published.ts';
import { subjectTitle } from './subject.ts';

/** One grid cell. */
export interface GridCell {
  id: string;
  /** absent: the matrix has no such cell (explicit cell lists leave holes). */
  kind: 'ok' | 'unsupported' | 'error' | 'absent';
  /** The text without colour: `2.30 ms =`, `(a)`, `error (b)` or empty. */
  text: string;
  /** The reason key of an unsupported or failed cell, or of a measured cell's notes (work differs, another torch). */
  key: string | null;
  result: CellResult | null;
}

/** One grid. */
export interface Grid {
  group: string;
  groupTitle: string;
  subject: string;
  subjectLabel: string;
  contracts: string[];
  tools: string[];
  /** rows[contract index][tool index]. */
  rows: GridCell[][];
  /** Each distinct reason once, with its key, in the order the keys were given. */
  reasons: { key: string; reason: string; kind: 'unsupported' | 'error' | 'note' }[];
  /** Why the grid's measured tool cells without a paired ratio are unpaired, each reason once with its count. */
  unpaired: { reason: string; count: number }[];
  counts: { ok: number; unsupported: number; error: number };
}

/**
 * Builds the grids. Order follows the spec where it has one (groups, subjects, contracts, tools in
 * declaration order); whatever the spec does not name, or everything without a spec, follows the
 * order of the cell ids in the file.
 */
export function buildGrids(input: ReportInput): Grid[] {
  const { results, spec } = input;
  const byId = cellIndex(results);
  // A file with paired timing shows each cell's paired ratio to raw beside its median (x1.24).
  const paired = results.cells.some((c) => c.paired);
  const groups = ordered(
    spec?.groups.map((g) => g.id),
    results.cells.map((c) => c.group),
  );
  // Cells by group and subject once: a results file may hold thousands of groups (linear, not quadratic).
  const byGroup = groupBy(results.cells, (c) => c.group);
  const specGroups = new Map((spec?.groups ?? []).map((g) => [g.id, g]));
  const grids: Grid[] = [];
  for (const group of groups) {
    const g = specGroups.get(group);
    const inGroup = byGroup.get(group) ?? [];
    const bySubject = groupBy(inGroup, (c) => c.subject);
    for (const subject of ordered(
      g?.subjects,
      inGroup.map((c) => c.subject),
    )) {
      const mine = bySubject.get(subject) ?? [];
      if (mine.length === 0) continue;
      const contractsHere = new Set(mine.map((c) => c.contract));
      const toolsHere = new Set(mine.map((c) => c.tool));
      const contracts = ordered(
        g?.contracts,
        mine.map((c) => c.contract),
      ).filter((k) => contractsHere.has(k));
      const declared = g && spec ? expandToolList(spec.tools, g.tools) : undefined;
      const tools = ordered(
        declared,
        mine.map((c) => c.tool),
      ).filter((t) => toolsHere.has(t));
      const { keyOf, reasons } = reasonKeys();
      const unpaired = new Map<string, number>();
      const ctx: CellContext = { results, byId, paired, keyOf, unpaired };
      const rows = contracts.map((contract) =>
        tools.map((tool) => gridCell(`${group}/${contract}/${tool}/${subject}`, ctx)),
      );
      grids.push({
        group,
        groupTitle: g?.title ?? '',
        subject,
        subjectLabel: subjectTitle(spec?.subjects[subject]?.label ?? subject, results.subjects[subject]?.meta?.model),
        contracts,
        tools,
        rows,
        reasons,
        unpaired: [...unpaired].map(([reason, count]) => ({ reason, count })),
        counts: {
          ok: mine.filter((c) => c.status === 'ok').length,
          unsupported: mine.filter((c) => c.status === 'unsupported').length,
          error: mine.filter((c) => c.status === 'error').length,
        },
      });
    }
  }
  return grids;
}

type ReasonKind = Grid['reasons'][number]['kind'];

/** One grid's reason keys: each distinct reason of a kind gets the next key, and is listed once under the grid. */
function reasonKeys(): { keyOf: (reason: string, kind: ReasonKind) => string; reasons: Grid['reasons'] } {
  const keys = new Map<string, string>();
  const reasons: Grid['reasons'] = [];
  const keyOf = (reason: string, kind: ReasonKind) => {
    const k = `${kind}\u0000${reason}`;
    if (!keys.has(k)) {
      const key = keyName(keys.size);
      keys.set(k, key);
      reasons.push({ key, reason, kind });
    }
    return keys.get(k)!;
  };
  return { keyOf, reasons };
}

/** What one grid's cells are made from: the file's cells, and the grid's keys and unpaired counts as they accrue. */
interface CellContext {
  results: ReportInput['results'];
  byId: CellIndex;
  /** Whether the file has paired timing, so that each cell shows its paired ratio to raw. */
  paired: boolean;
  keyOf: (reason: string, kind: ReasonKind) => string;
  unpaired: Map<string, number>;
}

/** The grid cell of one cell id: absent, its reason's key, or its measured figure. */
function gridCell(id: string, ctx: CellContext): GridCell {
  const c = ctx.byId.get(id) ?? null;
  if (!c) return { id, kind: 'absent', text: '', key: null, result: null };
  if (c.status === 'ok') return measuredCell(id, c, ctx);
  const reason = firstLine(c.reason ?? c.error?.message) || 'no reason recorded';
  const key = ctx.keyOf(reason, c.status);
  return { id, kind: c.status, text: c.status === 'error' ? `error (${key})` : `(${key})`, key, result: c };
}

/** A measured cell: its median, garbage, exactness mark and paired ratio, and the key of its notes. */
function measuredCell(id: string, c: CellResult, { results, byId, paired, keyOf, unpaired }: CellContext): GridCell {
  const mark = exactMark(c.exact);
  // A cell whose garbage costs a noticeable share of a call shows it beside the median (docs/protocol.md).
  const gc = gcSignificant(c.gc_median_ms, c.median_ms) ? ` +gc ${formatMs(c.gc_median_ms!)}` : '';
  const ratio = paired ? publishedRatio(c, byId) : null;
  const times = ratio?.paired ? ` x${ratio.ratio.toFixed(2)}` : '';
  if (ratio && !ratio.paired && ratio.why) unpaired.set(ratio.why, (unpaired.get(ratio.why) ?? 0) + 1);
  const figure = c.median_ms === null ? 'ok' : `${formatMs(c.median_ms)}${gc}${mark ? ` ${mark}` : ''}${times}`;
  // A work difference, another torch or a note is keyed under the grid, like a reason; so is the
  // guard's figure of a cell whose write does not move the output (its mark alone would not say how far),
  // and the precision control's of a degraded one.
  const notes = [
    ...(c.exact === 'vacuous' ? [vacuousText(c)] : c.exact === 'degraded' ? [degradedText(c)] : []),
    ...cellAnnotations(c, results),
  ];
  const key = notes.length ? keyOf(notes.join('; '), 'note') : null;
  return { id, kind: 'ok', text: key ? `${figure} (${key})` : figure, key, result: c };
}

/** Keys a, b, ..., z, a1, b1, ... */
function keyName(i: number): string {
  return String.fromCharCode(97 + (i % 26)) + (i >= 26 ? String(Math.floor(i / 26)) : '');
}

/** The preferred order first (only names that occur), then the rest in order of first appearance. */
function ordered(preferred: string[] | undefined, seen: string[]): string[] {
  const present = new Set(seen);
  const out = new Set((preferred ?? []).filter((x) => present.has(x)));
  for (const x of seen) out.add(x);
  return [...out];
}

/** Items by key, each list in the items' order. */
function groupBy<T>(items: T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of items) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}
