// What a results file says about tools built from source: each such cell's `tool_source`, and its
// `tool_version` as the build's own version string with the revision added (`2.36.1+git.1a2b3c4.dirty`),
// so that reports, compare and history name the build, not the release it came from. Pure.
import type { CellResult, CellSource, Results } from './model.ts';
import { sourceVersion } from '../source/resolve.ts';
import type { ResolvedSource } from '../spec/types.ts';

/** The results with the source of every cell whose tool ran one. */
export function recordSources(results: Results, byTool: ReadonlyMap<string, ResolvedSource>): Results {
  if (byTool.size === 0) return results;
  return { ...results, cells: results.cells.map((c) => withSource(c, byTool.get(c.tool))) };
}

function withSource(c: CellResult, s: ResolvedSource | undefined): CellResult {
  if (!s) return c;
  const own = c.tool_version;
  const source: CellSource = { ...sourceFields(s), version: own };
  // A cell whose build failed never ran: no version was reported, the revision still says what it was.
  return { ...c, tool_source: source, tool_version: own === null ? null : sourceVersion(own, s) };
}

/** What `run.tool_sources` of a results file records: the sources of the run, one per tool named. */
export function runSources(byTool: ReadonlyMap<string, ResolvedSource>): Record<string, unknown>[] {
  return [...byTool].map(([tool, s]) => ({ tool, ...sourceFields(s) }));
}

/** What a results file records of a source, in a cell and in the run alike: what it was and which revision. */
function sourceFields(s: ResolvedSource): Omit<CellSource, 'version'> {
  return { kind: s.kind, source: s.text, commit: s.commit, committed: s.committed, dirty: s.dirty, digest: s.digest };
}
