// A change's run judged: the run seen as two (sides.ts), compare's comparison of head against base over
// the tool's cells, and the report bench-change prints and bisect labels each step by. Pure.
import { compareResults } from '../compare/compute.ts';
import type { CompareSettings, Comparison } from '../compare/model.ts';
import type { Results } from '../results/model.ts';
import type { SourceRequest } from '../source/prepare.ts';
import { splitToolId } from '../spec/versions.ts';
import { sideSummaries, type ChangeReport } from './render.ts';
import { isToolCell, sideOf, splitSides } from './sides.ts';

/** What names the run in the report: the spec, the tool asked for, the sources as recorded, the run directory. */
export interface ChangeRun {
  spec: string;
  tool: string;
  sources: SourceRequest[];
  /** The run directory as shown (relative to the current directory where it can be). */
  run: string;
}

/** The report of one change's run; `settings` as compare's options give them. */
export function judgeChange(results: Results, r: ChangeRun, settings: Partial<CompareSettings>): ChangeReport {
  const { before, after } = splitSides(results);
  const tools = [...new Set(results.cells.filter((c) => sideOf(c.tool) !== null).map((c) => splitToolId(c.tool).tool))];
  // Both sides are one interleaved run: no run-to-run component separates them (docs/compare.md).
  const comparison = underTest(
    compareResults(
      before,
      after,
      { before: `${r.run} (base)`, after: `${r.run} (head)` },
      { ...settings, same_run: true },
      isToolCell(results),
    ),
    tools,
  );
  return {
    format: 'benchgrid-change',
    version: 1,
    spec: r.spec,
    tool: r.tool,
    tools,
    sides: sideSummaries(results, r.sources),
    run: r.run,
    comparison,
  };
}

/** Whether the report fails --fail-on-slower: a cell, or the tool over its cells (bench-change's exit 4). */
export function failsOnSlower(report: ChangeReport): boolean {
  const s = report.comparison.summary;
  return (s.failing ?? []).length + (s.failing_tools ?? []).length > 0;
}

/**
 * The version of the tool under test differs between the sides by design: that difference is what is
 * compared, so it is listed as a note, not as a difference that makes the sides incomparable.
 */
function underTest(c: Comparison, tools: string[]): Comparison {
  const differences = c.environment.differences.map((d) =>
    d.key.startsWith('tool.') && tools.includes(d.key.slice(5)) ? { ...d, blocking: false } : d,
  );
  return { ...c, environment: { differences, blocking: differences.filter((d) => d.blocking).length } };
}
