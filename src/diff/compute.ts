// The diff itself: a pure function of two resolved specs and their plans, with no I/O.
import type { Cell, Plan } from '../plan/expand.ts';
import { cellId } from '../plan/expand.ts';
import type { Spec } from '../spec/types.ts';
import { definitionChanges, labelChanges, type Measured } from './definitions.ts';
import type { CellRef, DiffSummary, PageRelabel, PageRowRef, SideInfo, SpecDiff } from './model.ts';
import { detectRenames, renamed, type RenameMaps } from './renames.ts';

/** One version of a spec: resolved, planned, and how to show its file. */
export interface DiffSide {
  spec: Spec;
  plan: Plan;
  /** How the file is shown; defaults to spec.file. */
  file?: string;
}

const NO_RENAMES: RenameMaps = { contract: new Map(), tool: new Map(), subject: new Map() };

/**
 * Compares two versions of a spec as matrices. `old` is null for a new spec, `new` null for a deleted
 * one (every cell added or removed). Cells are matched through renames, so a renamed contract, tool or
 * subject does not show as its cells removed and added.
 */
export function diffSpecs(old: DiffSide | null, neu: DiffSide | null): SpecDiff {
  const both = old && neu ? { old: old.spec, new: neu.spec } : null;
  const { renames, maps } = both ? detectRenames(both.old, both.new) : { renames: [], maps: NO_RENAMES };
  const oldCells = old?.plan.cells ?? [];
  const newCells = neu?.plan.cells ?? [];
  const mapped = (c: Cell) =>
    cellId(c.group, renamed(maps.contract, c.contract), renamed(maps.tool, c.tool), renamed(maps.subject, c.subject));

  const oldByNewId = new Map(oldCells.map((c) => [mapped(c), c]));
  const newIds = new Set(newCells.map((c) => c.id));
  const cells: SpecDiff['cells'] = { added: [], removed: [], renamed: [], flipped: [], reasonChanged: [] };
  const measured: Measured[] = [];
  for (const n of newCells) {
    const o = oldByNewId.get(n.id);
    if (!o) {
      cells.added.push(ref(n));
      continue;
    }
    const was = o.id === n.id ? null : o.id;
    if (was) cells.renamed.push({ from: o.id, to: n.id });
    if (o.status !== n.status)
      cells.flipped.push({
        id: n.id,
        was,
        from: { status: o.status, reason: o.reason },
        to: { status: n.status, reason: n.reason },
      });
    else if (o.reason !== n.reason) cells.reasonChanged.push({ id: n.id, was, from: o.reason, to: n.reason });
    if (o.status === 'planned' && n.status === 'planned') measured.push({ old: o, new: n });
  }
  for (const o of oldCells) if (!newIds.has(mapped(o))) cells.removed.push(ref(o));

  const definitions = both ? definitionChanges({ ...both, maps, measured }) : [];
  const labels = both ? labelChanges(both.old, both.new, maps) : [];
  const page = pageChanges(old?.spec ?? null, neu?.spec ?? null, maps);
  const hit = new Set(definitions.flatMap((d) => d.invalidates));
  const invalidated = newCells.filter((c) => hit.has(c.id)).map((c) => c.id);

  const summary: DiffSummary = {
    cells: { old: oldCells.length, new: newCells.length },
    planned: { old: countPlanned(oldCells), new: countPlanned(newCells) },
    added: cells.added.length,
    removed: cells.removed.length,
    renamed: cells.renamed.length,
    flipped: cells.flipped.length,
    reasonChanged: cells.reasonChanged.length,
    definitionChanges: definitions.length,
    invalidated: invalidated.length,
    labelChanges: labels.length,
    pageAdded: page.added.length,
    pageRemoved: page.removed.length,
    pageRelabelled: page.relabelled.length,
  };
  const changed =
    old === null ||
    neu === null ||
    renames.length > 0 ||
    definitions.length > 0 ||
    labels.length > 0 ||
    Object.values(cells).some((l) => l.length > 0) ||
    Object.values(page).some((l) => l.length > 0);
  return { old: side(old), new: side(neu), changed, summary, renames, cells, definitions, labels, page, invalidated };
}

/** Cells of the new version that need measuring: added, flipped to planned, or invalidated by a change. */
export function cellsToMeasure(d: SpecDiff): string[] {
  const ids = new Set([
    ...d.cells.added.filter((c) => c.status === 'planned').map((c) => c.id),
    ...d.cells.flipped.filter((f) => f.to.status === 'planned').map((f) => f.id),
    ...d.invalidated,
  ]);
  return [...ids];
}

/** Page rows matched by cell (through renames): added, removed, or with a new section or text. */
function pageChanges(old: Spec | null, neu: Spec | null, maps: RenameMaps): SpecDiff['page'] {
  const rename = (id: string) => {
    const [g, c, t, s] = id.split('/');
    return cellId(g, renamed(maps.contract, c), renamed(maps.tool, t), renamed(maps.subject, s));
  };
  const oldRows = new Map(pageRows(old).map((r) => [rename(r.cell), r]));
  const newRows = pageRows(neu);
  const newCells = new Set(newRows.map((r) => r.cell));
  const out: SpecDiff['page'] = { added: [], removed: [], relabelled: [] };
  for (const r of newRows) {
    const o = oldRows.get(r.cell);
    if (!o) out.added.push(r);
    else if (o.section !== r.section || o.row !== r.row || o.entry !== r.entry) {
      const rel: PageRelabel = {
        cell: r.cell,
        was: o.cell === r.cell ? null : o.cell,
        from: { section: o.section, row: o.row, entry: o.entry },
        to: { section: r.section, row: r.row, entry: r.entry },
      };
      out.relabelled.push(rel);
    }
  }
  for (const [id, o] of oldRows) if (!newCells.has(id)) out.removed.push(o);
  return out;
}

function pageRows(spec: Spec | null): PageRowRef[] {
  if (!spec) return [];
  return spec.page.flatMap((sec) =>
    sec.rows.flatMap((row) =>
      row.entries.map((e) => ({ cell: e.cell, section: sec.title, row: row.label, entry: e.label })),
    ),
  );
}

function ref(c: Cell): CellRef {
  return { id: c.id, status: c.status, reason: c.reason };
}

function countPlanned(cells: Cell[]): number {
  return cells.filter((c) => c.status === 'planned').length;
}

function side(s: DiffSide | null): SideInfo | null {
  if (!s) return null;
  return {
    file: s.file ?? s.spec.file,
    name: s.spec.name,
    cells: s.plan.cells.length,
    planned: countPlanned(s.plan.cells),
  };
}
