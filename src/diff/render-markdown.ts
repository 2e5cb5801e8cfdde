// Renders a diff report as GitHub markdown for a pull-request comment; long lists fold into <details>.
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { forMarkdown, forMarkdownCode } from '../util/escape.ts';
import type { DefinitionChange, DiffReport, SpecDiff } from './model.ts';
import { foldSameChange } from './render-terminal.ts';
import * as describe from './describe.ts';

/** Lists longer than this are folded into a collapsible <details> block. */
export const MARKDOWN_OPEN_LIMIT = 5;

/** A hidden marker at the top of the comment, so a workflow can find and update its earlier comment. */
export const MARKDOWN_MARKER = '<!-- benchgrid-diff -->';

/** The report as a markdown document. */
export function renderMarkdown(report: DiffReport): string {
  const out = [MARKDOWN_MARKER, `## benchgrid diff${report.base ? ` against ${code(report.base)}` : ''}`, ''];
  if (report.diffs.length === 0 && report.invalid.length === 0)
    out.push(report.base ? `No spec changed since ${code(report.base)}.` : 'Nothing to compare.', '');
  for (const u of report.unrelated_invalid ?? [])
    out.push(
      `> Left out: ${code(u.file)} does not load (${esc(u.why)}), and no change since ${code(report.base ?? '')} touches it.`,
      '',
    );
  for (const inv of report.invalid) {
    const lines = inv.diagnostics.map((d) => formatDiagnostic(d));
    out.push(`### ${code(inv.file)} is invalid (${inv.side} version)`, '', fence(lines), ...lines, fence(lines), '');
  }
  // A change reaching several specs (they extend the changed one) is shown once, with the specs it reaches.
  for (const { diffs, body } of foldSameChange(report.diffs, renderOne)) {
    const [d] = diffs;
    if (diffs.length === 1) {
      out.push(`### ${code(d.new?.file ?? d.old?.file ?? '')} (${esc(describe.names(d).replace(' -> ', ' → '))})`, '');
      if (d.old && d.new && d.old.file !== d.new.file) out.push(`Compared with ${code(d.old.file)}.`, '');
    } else {
      out.push(
        `### The same change reaches ${diffs.length} specs: ${diffs.map((x) => code(x.new?.file ?? x.old?.file ?? '')).join(', ')}`,
        '',
      );
      if (report.base) out.push(`Each compared with its version at ${code(report.base)}.`, '');
    }
    out.push(...body);
  }
  return (
    out
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}

function renderOne(d: SpecDiff): string[] {
  const out: string[] = [];
  out.push(`**${esc(describe.summaryLine(d))}**`, '');
  const list = (title: string, items: string[], count?: number) => out.push(...block(title, items, count));

  list(
    'Renamed',
    d.renames.map((r) => `${r.kind} ${code(r.from)} → ${code(r.to)}`),
  );
  list(
    'Cells added',
    d.cells.added.map((x) => `${code(x.id)} ${x.status}${x.reason ? `: ${esc(x.reason)}` : ''}`),
  );
  list(
    'Cells removed',
    d.cells.removed.map((x) => `${code(x.id)} ${x.status}${x.reason ? `: ${esc(x.reason)}` : ''}`),
  );
  list(
    'Cells renamed',
    d.cells.renamed.map((x) => `${code(x.from)} → ${code(x.to)}`),
  );
  list(
    'Status flipped',
    d.cells.flipped.map(
      (f) =>
        `${code(f.id)}: ${f.from.status}${f.from.reason ? ` (${esc(f.from.reason)})` : ''} → ${f.to.status}${f.to.reason ? ` (${esc(f.to.reason)})` : ''}`,
    ),
  );
  list(
    'Reasons changed',
    d.cells.reasonChanged.map((r) => `${code(r.id)}: ~~${esc(r.from ?? '')}~~ → ${esc(r.to ?? '')}`),
  );
  if (d.definitions.length > 0) {
    out.push(
      `**Definitions changed (${d.definitions.length})${d.invalidated.length ? `: ${describe.plural(d.invalidated.length, 'cell')} to re-measure` : ''}**`,
      '',
    );
    for (const x of d.definitions) out.push(...definition(x));
    out.push('');
  }
  list(
    'Labels changed',
    d.labels.map((l) => `${l.kind}${l.id ? ` ${code(l.id)}` : ''} ${l.field}: ~~${esc(l.from)}~~ → ${esc(l.to)}`),
  );
  list(
    'Page rows added',
    d.page.added.map((r) => `${code(r.cell)}: ${esc(describe.rowText(r))}`),
  );
  list(
    'Page rows removed',
    d.page.removed.map((r) => `${code(r.cell)}: ${esc(describe.rowText(r))}`),
  );
  const { rows, entries } = describe.groupRelabels(d);
  const sectionOf = (g: describe.RowRelabel) =>
    g.from.section !== g.to.section ? ` (section ~~${esc(g.from.section)}~~ → ${esc(g.to.section)})` : '';
  list(
    `Page rows relabelled`,
    [
      ...rows.map(
        (g) =>
          `row ~~${esc(g.from.row)}~~ → ${esc(g.to.row)}${sectionOf(g)}: ${describe.plural(g.cells.length, 'row')} (${esc(describe.cellNames(g.cells))})`,
      ),
      ...entries.map((r) => `${code(r.cell)} entry ~~${esc(r.from.entry)}~~ → ${esc(r.to.entry)}`),
    ],
    d.page.relabelled.length,
  );
  return out;
}

function definition(x: DefinitionChange): string[] {
  if (x.change !== 'changed') return [`- ${esc(describe.subjectOf(x))} ${x.change}`];
  const head = `- **${esc(describe.subjectOf(x))}**: ${describe.changeText(x, value, '→', code)}`;
  if (x.invalidates.length === 0) return [`${head}; invalidates nothing`];
  if (describe.invalidatesAll(x))
    return [`${head}; invalidates every cell planned before and after (${x.invalidates.length})`];
  const cells = x.invalidates.map((id) => `- ${code(id)}`);
  if (cells.length <= MARKDOWN_OPEN_LIMIT) return [`${head}; invalidates:`, ...cells.map((l) => `  ${l}`)];
  return [
    `${head}; invalidates ${describe.plural(x.invalidates.length, 'cell')}`,
    '',
    '  <details><summary>cells to re-measure</summary>',
    '',
    ...cells.map((l) => `  ${l}`),
    '',
    '  </details>',
    '',
  ];
}

/** A titled list, folded into <details> when it is long. */
function block(title: string, items: string[], count = items.length): string[] {
  if (items.length === 0) return [];
  const lines = items.map((i) => `- ${i}`);
  if (items.length <= MARKDOWN_OPEN_LIMIT) return [`**${title} (${count})**`, '', ...lines, ''];
  return [`<details><summary><b>${title} (${count})</b></summary>`, '', ...lines, '', '</details>', ''];
}

function value(v: unknown): string {
  if (v === null || v === undefined) return '*(unset)*';
  return code(typeof v === 'string' ? v : JSON.stringify(v));
}

// Values from the specs go through the markdown sink (src/util/escape.ts): names and values as code
// spans, labels and reasons as text (their own `code` spans kept).
const code = forMarkdownCode;
const esc = forMarkdown;

/** A fence longer than any run of backticks in `lines`, so no line can close the block early. */
function fence(lines: string[]): string {
  const longest = Math.max(0, ...lines.map((l) => Math.max(0, ...[...l.matchAll(/`+/g)].map((m) => m[0].length))));
  return '`'.repeat(Math.max(3, longest + 1));
}
