// Sentences shared by the terminal and markdown renderers: the summary line, values, field changes.
import type { DefinitionChange, PageRelabel, SpecDiff } from './model.ts';

/** The one-line summary of a spec's diff, with counts; zero counts are left out. */
export function summaryLine(d: SpecDiff): string {
  const s = d.summary;
  if (!d.old) return `new spec: ${plural(s.cells.new, 'cell')} added, ${s.planned.new} planned.`;
  if (!d.new) return `spec deleted: ${plural(s.cells.old, 'cell')} removed.`;
  const size = `${plural(s.cells.new, 'cell')}${s.cells.old !== s.cells.new ? ` (was ${s.cells.old})` : ''}, ${s.planned.new} planned${s.planned.old !== s.planned.new ? ` (was ${s.planned.old})` : ''}`;
  if (!d.changed) return `${size}: no change.`;
  const parts = [
    s.added && `${s.added} added`,
    s.removed && `${s.removed} removed`,
    s.renamed && `${s.renamed} renamed`,
    s.flipped && `${s.flipped} flipped`,
    s.reasonChanged && `${plural(s.reasonChanged, 'reason')} changed`,
    s.definitionChanges &&
      (s.invalidated
        ? `${s.invalidated} to re-measure after ${plural(s.definitionChanges, 'definition change')}`
        : plural(s.definitionChanges, 'definition change')),
    s.labelChanges && plural(s.labelChanges, 'label change'),
    s.pageAdded && `${plural(s.pageAdded, 'page row')} added`,
    s.pageRemoved && `${plural(s.pageRemoved, 'page row')} removed`,
    s.pageRelabelled && `${plural(s.pageRelabelled, 'page row')} relabelled`,
  ].filter(Boolean);
  return `${size}: ${parts.join(', ')}.`;
}

/** `2 cells`, `1 cell`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** A value as it reads in a sentence: strings bare, unset as `(unset)`, the rest as JSON. */
export function showValue(v: unknown): string {
  if (v === null || v === undefined) return '(unset)';
  if (typeof v === 'string') return v === '' ? '""' : v;
  return JSON.stringify(v);
}

/** What a definition change is about, e.g. `protocol` or `subject resnet18`. */
export function subjectOf(c: DefinitionChange): string {
  return c.id === null ? c.kind : `${c.kind} ${c.id}`;
}

/** Whether a change invalidates every cell measured in both versions (the device and the protocol do). */
export function invalidatesAll(c: DefinitionChange): boolean {
  return c.kind === 'device' || c.kind === 'protocol';
}

/** The spec's name as a heading reads it: `resnet18_gpu -> resnet18_cpu`, or one name. */
export function names(d: SpecDiff): string {
  const a = d.old?.name;
  const b = d.new?.name;
  return a && b && a !== b ? `${a} -> ${b}` : (b ?? a ?? '');
}

/** A row label change shared by several page rows (e.g. a `{title}` in every row label). */
export interface RowRelabel {
  from: { section: string; row: string };
  to: { section: string; row: string };
  cells: string[];
}

/** Page relabels grouped for reading: row (and section) label changes by row, entry label changes one by one. */
export function groupRelabels(d: SpecDiff): { rows: RowRelabel[]; entries: PageRelabel[] } {
  const rows = new Map<string, RowRelabel>();
  const entries: PageRelabel[] = [];
  for (const r of d.page.relabelled) {
    if (r.from.section !== r.to.section || r.from.row !== r.to.row) {
      const key = JSON.stringify([r.from.section, r.from.row, r.to.section, r.to.row]);
      const group =
        rows.get(key) ??
        rows
          .set(key, {
            from: { section: r.from.section, row: r.from.row },
            to: { section: r.to.section, row: r.to.row },
            cells: [],
          })
          .get(key)!;
      group.cells.push(r.cell);
    }
    if (r.from.entry !== r.to.entry) entries.push(r);
  }
  return { rows: [...rows.values()], entries };
}

/** A page row as one line: `row label | entry label`. */
export function rowText(r: { row: string; entry: string }): string {
  return `${r.row} | ${r.entry}`;
}

/** A definition change's fields, without repeating the name of a one-value setting (`device: cuda -> cpu`). */
export function changeText(
  c: DefinitionChange,
  value?: (v: unknown) => string,
  arrow?: string,
  path?: (p: string) => string,
): string {
  if (c.fields.length === 1 && c.fields[0].path === c.kind) {
    const f = c.fields[0];
    return `${(value ?? showValue)(f.from)} ${arrow ?? '->'} ${(value ?? showValue)(f.to)}`;
  }
  return c.fields
    .map(
      (f) =>
        `${(path ?? ((p: string) => p))(f.path)} ${(value ?? showValue)(f.from)} ${arrow ?? '->'} ${(value ?? showValue)(f.to)}`,
    )
    .join(', ');
}

/** Cells of one page row, short: their tools when they share a contract, else `contract/tool`. */
export function cellNames(cells: string[]): string {
  const parts = cells.map((id) => id.split('/'));
  const oneContract = new Set(parts.map((p) => p[1])).size === 1;
  return parts.map((p) => (oneContract ? p[2] : `${p[1]}/${p[2]}`)).join(', ');
}
