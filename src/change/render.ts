// bench-change's output: which code each side ran, the answer for the tool in one line, then compare's
// own rendering of the two sides (markdown for a pull-request comment, a table for a terminal). Pure.
import { change } from '../compare/format.ts';
import type { Comparison, ToolComparison } from '../compare/model.ts';
import type { CellResult, Results } from '../results/model.ts';
import type { Side } from '../source/apply.ts';
import type { SourceRequest } from '../source/prepare.ts';
import { sideOf } from './sides.ts';

/** What one side ran: its source as given and resolved, and the version its cells recorded. */
export interface SideSummary {
  side: Side;
  /** As typed: `pinned`, `git:main`, `.`. */
  given: string;
  /** As resolved: `pinned`, an absolute directory, or `git:REPO@COMMIT`. */
  source: string;
  /** The versions its cells reported (`2.36.1`, `1.0.0+git.1a2b3c4.dirty`); empty when none ran. */
  versions: string[];
  dirty: boolean;
}

/** Everything bench-change reports. */
export interface ChangeReport {
  format: 'benchgrid-change';
  version: 1;
  spec: string;
  /** The tool (or package) named with --tool, and the tool ids it stood for. */
  tool: string;
  tools: string[];
  sides: SideSummary[];
  /** The run directory that holds both sides' processes. */
  run: string;
  comparison: Comparison;
}

/** The first line of the markdown: one marker per tool and spec, so a CI job updates its own comment. */
export function changeMarker(tool: string, spec: string): string {
  return `<!-- benchgrid:bench-change tool=${tool} spec=${spec} -->`;
}

/** Each side's summary, from the run's results. */
export function sideSummaries(results: Results, sources: SourceRequest[]): SideSummary[] {
  return sources.flatMap(({ side, source, given }) => {
    if (side === null) return [];
    const cells = results.cells.filter((c) => sideOf(c.tool) === side);
    const versions = [
      ...new Set(cells.map((c: CellResult) => c.tool_version).filter((v): v is string => v !== null)),
    ].sort();
    return [
      { side, given: given ?? source, source, versions, dirty: cells.some((c) => c.tool_source?.dirty === true) },
    ];
  });
}

/** The answer in one line: each tool's verdict over its cells, else its cells' labels. */
export function answer(r: ChangeReport): string {
  const tools = (r.comparison.tools ?? []).filter((t) => r.tools.includes(t.tool));
  const judged = tools.filter((t) => t.label !== 'unavailable');
  if (judged.length > 0) return judged.map(verdictText).join('; ');
  const s = r.comparison.summary;
  return `${r.tools.join(', ')}: no tool verdict (${tools[0]?.why ?? 'no comparable cell'}); cells: ${s.slower} slower, ${s.faster} faster, ${s.within_noise} within noise, ${s.unavailable} unavailable`;
}

function verdictText(t: ToolComparison): string {
  const words = t.label === 'within_noise' ? 'within noise' : t.label;
  const iv = t.interval ? `, 95% CI ${change(t.interval.low)} to ${change(t.interval.high)}` : '';
  return `${t.tool} (${t.subject}): ${words}, ${change(t.ratio)} over ${t.cells.length} cells${iv}`;
}

const code = (s: string) => `\`${s.replace(/`/g, "'").replace(/[\r\n|]+/g, ' ')}\``;

/** The markdown: marker, answer, the sides, then compare's markdown (its own marker line dropped). */
export function renderChangeMarkdown(r: ChangeReport, compareMarkdown: string): string {
  const rows = r.sides.map(
    (s) =>
      `| ${s.side} | ${code(s.given)}${s.dirty ? ' (uncommitted changes)' : ''} | ${s.versions.map(code).join(', ') || 'not measured'} |`,
  );
  return [
    changeMarker(r.tool, r.spec),
    `## benchgrid bench-change: ${code(r.tool)} on ${code(r.spec)}`,
    '',
    `**${answer(r).replace(/[\r\n]+/g, ' ')}**`,
    '',
    '| side | source | version measured |',
    '| --- | --- | --- |',
    ...rows,
    '',
    `Both sides ran in one interleaved run (${code(r.run)}); each cell below is the tool's cell on head against the same cell on base.`,
    '',
    compareMarkdown.split('\n').slice(1).join('\n'),
  ].join('\n');
}

/** The terminal text: the sides and the answer above compare's table. */
export function renderChangeTable(r: ChangeReport, compareTable: string): string {
  const lines = r.sides.map(
    (s) =>
      `${s.side}: ${s.given}${s.given === s.source ? '' : ` (${s.source})`}${s.dirty ? ' (uncommitted changes)' : ''} -> ${s.versions.join(', ') || 'not measured'}`,
  );
  return [...lines, `run:  ${r.run}`, `answer: ${answer(r)}`, '', compareTable].join('\n');
}
