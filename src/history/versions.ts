// The version axis of the history: where each measured cell sits on it (a release, or a build from source at
// the version it reported), and the order of every version the history holds.
import type { CellResult } from '../results/model.ts';
import { compareVersions } from '../spec/version-range.ts';
import { splitToolId } from '../spec/versions.ts';
import { SIDES } from '../source/apply.ts';
import type { Series } from './model.ts';

/**
 * Where a cell sits on the version axis: a versioned tool's release is in its id; a build from source
 * (`run --tool-source`, either side of bench-change) at its own version, which carries its revision
 * (`2.36.1+git.1a2b3c4`); the pinned side of bench-change and any other tool at the library version
 * its processes measured.
 */
export function versionOf(c: CellResult): string | null {
  const { version } = splitToolId(c.tool);
  if (c.tool_source || (version !== null && (SIDES as readonly string[]).includes(version)))
    return c.tool_version ?? null;
  return version ?? c.tool_version ?? null;
}

/**
 * Orders every version of the history: by release (a build from source by the version it reported
 * itself), a release before the builds from its source, and builds of one release by the date of their
 * commit (an uncommitted tree after its commit), so a branch sits after the release it came from, in
 * the order it was written.
 */
export function rankVersions(series: Series[], cellsOf: Map<string, CellResult>): void {
  const keyOf = new Map<string, { own: string; source: CellResult['tool_source'] }>();
  for (const s of series) {
    for (const p of s.points) {
      const source = cellsOf.get(`${p.run}\u0000${p.cell}`)?.tool_source ?? null;
      if (p.version !== null && !keyOf.has(p.version))
        keyOf.set(p.version, { own: source?.version ?? p.version, source });
    }
  }
  const when = (x: CellResult['tool_source']) => (x?.committed ? Date.parse(x.committed) || 0 : 0);
  const order = [...keyOf].sort(
    ([va, a], [vb, b]) =>
      compareVersions(a.own, b.own) ||
      Number(a.source != null) - Number(b.source != null) ||
      when(a.source) - when(b.source) ||
      Number(a.source?.dirty === true) - Number(b.source?.dirty === true) ||
      (va < vb ? -1 : va > vb ? 1 : 0),
  );
  const rank = new Map(order.map(([v], i) => [v, i]));
  for (const s of series) for (const p of s.points) p.rank = p.version === null ? null : rank.get(p.version)!;
}
