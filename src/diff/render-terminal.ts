// Renders a diff report for a terminal: one block per spec, sections only where something changed.
import { DEFAULT_WIDTH, wrapLine } from '../util/width.ts';
import type { DefinitionChange, DiffReport, SpecDiff } from './model.ts';
import * as describe from './describe.ts';
import { forTerminal, mapStrings } from '../util/escape.ts';

/** Lists longer than this show their first entries and a count; `--format json` has them all. */
export const TERMINAL_LIST_LIMIT = 20;

/** The report as `benchgrid diff` prints it on a terminal. */
export function renderTerminal(raw: DiffReport, color: boolean, width = DEFAULT_WIDTH): string {
  // Every string of the specs (labels, reasons, values) through the terminal sink.
  const report = mapStrings(raw, forTerminal);
  const paint = (code: number, reset: number) => (s: string) => (color ? `\x1b[${code}m${s}\x1b[${reset}m` : s);
  const c = { add: paint(32, 39), del: paint(31, 39), mod: paint(33, 39), bold: paint(1, 22), dim: paint(2, 22) };
  if (report.diffs.length === 0 && report.invalid.length === 0) {
    return report.base ? `No spec changed since ${report.base}.\n` : 'Nothing to compare.\n';
  }
  // A change to a spec that others extend reaches each of them the same way: shown once, with the specs it reaches.
  const blocks = foldSameChange(report.diffs, (d) => renderOne(d, c)).map(({ diffs, body }) => {
    if (diffs.length === 1)
      return (
        [
          c.bold(`${diffs[0].old?.file ?? '(none)'} -> ${diffs[0].new?.file ?? '(deleted)'}`) +
            c.dim(` (${describe.names(diffs[0])})`),
          ...body,
        ].join('\n') + '\n'
      );
    const files = diffs.map((d) => d.new?.file ?? d.old?.file ?? '');
    return [c.bold(`the same change reaches ${diffs.length} specs: ${files.join(', ')}`), ...body].join('\n') + '\n';
  });
  return blocks
    .join('\n')
    .split('\n')
    .flatMap((l) => wrapLine(l, width))
    .join('\n');
}

/** Diffs grouped by identical rendered bodies, in first-seen order. */
export function foldSameChange<T>(diffs: SpecDiff[], render: (d: SpecDiff) => T[]): { diffs: SpecDiff[]; body: T[] }[] {
  const groups = new Map<string, { diffs: SpecDiff[]; body: T[] }>();
  for (const d of diffs) {
    const body = render(d);
    // Only real changes fold: "no change" of two specs is two facts, said per spec.
    const key = d.changed ? JSON.stringify(body) : `\u0000${groups.size}`;
    const g = groups.get(key);
    if (g) g.diffs.push(d);
    else groups.set(key, { diffs: [d], body });
  }
  return [...groups.values()];
}

type Paint = Record<'add' | 'del' | 'mod' | 'bold' | 'dim', (s: string) => string>;

/** The lines of one spec's diff below its heading. */
function renderOne(d: SpecDiff, c: Paint): string[] {
  const out: string[] = [];
  out.push(`  ${describe.summaryLine(d)}`);
  const section = (title: string, lines: string[]) => {
    if (lines.length > 0) out.push('', c.bold(title), ...lines);
  };
  section(
    `Renamed (${d.renames.length})`,
    d.renames.map((r) => `  ${r.kind} ${r.from} -> ${r.to}`),
  );
  section(
    `Cells added (${d.cells.added.length})`,
    capped(d.cells.added.map((x) => c.add(`  + ${x.id}  ${x.status}${x.reason ? `: ${x.reason}` : ''}`))),
  );
  section(
    `Cells removed (${d.cells.removed.length})`,
    capped(d.cells.removed.map((x) => c.del(`  - ${x.id}  ${x.status}${x.reason ? `: ${x.reason}` : ''}`))),
  );
  section(`Cells renamed (${d.cells.renamed.length})`, capped(d.cells.renamed.map((x) => `  ${x.from} -> ${x.to}`)));
  section(
    `Status flipped (${d.cells.flipped.length})`,
    d.cells.flipped.flatMap((f) => [
      c.mod(`  ~ ${f.id}${f.was ? ` (was ${f.was})` : ''}: ${f.from.status} -> ${f.to.status}`),
      ...(f.from.reason ? [`      was: ${f.from.reason}`] : []),
      ...(f.to.reason ? [`      now: ${f.to.reason}`] : []),
    ]),
  );
  section(
    `Reasons changed (${d.cells.reasonChanged.length})`,
    d.cells.reasonChanged.flatMap((r) => [
      c.mod(`  ~ ${r.id}${r.was ? ` (was ${r.was})` : ''}`),
      `      was: ${describe.showValue(r.from)}`,
      `      now: ${describe.showValue(r.to)}`,
    ]),
  );
  section(
    `Definitions changed (${d.definitions.length})${d.invalidated.length ? `, ${describe.plural(d.invalidated.length, 'cell')} to re-measure` : ''}`,
    d.definitions.flatMap((x) => definition(x, c)),
  );
  section(
    `Labels changed (${d.labels.length})`,
    d.labels.map(
      (l) => `  ${l.kind}${l.id ? ` ${l.id}` : ''} ${l.field}: ${JSON.stringify(l.from)} -> ${JSON.stringify(l.to)}`,
    ),
  );
  section(
    `Page rows added (${d.page.added.length})`,
    capped(d.page.added.map((r) => c.add(`  + ${r.cell}: ${describe.rowText(r)}`))),
  );
  section(
    `Page rows removed (${d.page.removed.length})`,
    capped(d.page.removed.map((r) => c.del(`  - ${r.cell}: ${describe.rowText(r)}`))),
  );
  const { rows, entries } = describe.groupRelabels(d);
  const sectionOf = (g: describe.RowRelabel, side: 'from' | 'to') =>
    g.from.section !== g.to.section ? `[${g[side].section}] ` : '';
  section(`Page rows relabelled (${d.page.relabelled.length})`, [
    ...rows.flatMap((g) => [
      c.mod(`  ~ row ${sectionOf(g, 'from')}${g.from.row}`),
      `     -> ${sectionOf(g, 'to')}${g.to.row}`,
      c.dim(`        ${describe.plural(g.cells.length, 'row')}: ${describe.cellNames(g.cells)}`),
    ]),
    ...capped(
      entries.map((r) =>
        c.mod(
          `  ~ ${r.cell}${r.was ? ` (was ${r.was})` : ''} entry: ${JSON.stringify(r.from.entry)} -> ${JSON.stringify(r.to.entry)}`,
        ),
      ),
    ),
  ]);
  return out;
}

function definition(x: DefinitionChange, c: Paint): string[] {
  if (x.change !== 'changed') return [(x.change === 'added' ? c.add : c.del)(`  ${describe.subjectOf(x)} ${x.change}`)];
  const head = c.mod(`  ${describe.subjectOf(x)}: ${describe.changeText(x)}`);
  if (x.invalidates.length === 0) return [head, c.dim('    invalidates nothing')];
  if (describe.invalidatesAll(x))
    return [head, `    invalidates every cell planned before and after (${x.invalidates.length})`];
  return [
    head,
    `    invalidates ${describe.plural(x.invalidates.length, 'cell')}:`,
    ...capped(x.invalidates.map((id) => `      ${id}`)),
  ];
}

/** The first TERMINAL_LIST_LIMIT lines and a count of the rest. */
function capped(lines: string[]): string[] {
  if (lines.length <= TERMINAL_LIST_LIMIT) return lines;
  return [
    ...lines.slice(0, TERMINAL_LIST_LIMIT),
    `    ... and ${lines.length - TERMINAL_LIST_LIMIT} more (--format json lists them all)`,
  ];
}
