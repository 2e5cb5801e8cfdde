// What a run records of its environments in results.json (`run.environments`): for each environment its
// cells ran in, the installer that built it, whether from a lock, and its resolved set (`name==version`),
// read from the environment's marker. compare's environment guard (src/compare/env-guard.ts) names a
// transitive version that changed between two runs from it. Kept out of `versions`, whose few entries
// (python, torch, each tool's release) the reports print as tables.
import fs from 'node:fs';
import path from 'node:path';
import { MARKER } from './build.ts';
import { pins, resolvedSet, type ResolvedPackage } from './resolved.ts';

/** One environment as a run records it. */
export interface RecordedEnv {
  installer: string | null;
  locked: boolean;
  resolved: string[];
}

/**
 * The recorded environments of the interpreters a run used; an interpreter outside the cache (`--python`)
 * records none. An environment built before markers held the resolved set is asked for it (one short
 * Python process), so the environments already cached record theirs too.
 */
export async function recordedEnvironments(pythons: Record<string, string>): Promise<Record<string, RecordedEnv>> {
  const out: Record<string, RecordedEnv> = {};
  for (const [name, python] of Object.entries(pythons).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (!path.isAbsolute(python)) continue;
    try {
      const m = JSON.parse(fs.readFileSync(path.join(path.dirname(path.dirname(python)), MARKER), 'utf8')) as {
        installer?: unknown;
        locked?: unknown;
        resolved?: unknown;
      };
      const resolved = Array.isArray(m.resolved) ? (m.resolved as ResolvedPackage[]) : await resolvedSet(python);
      out[name] = {
        installer: typeof m.installer === 'string' ? m.installer : null,
        locked: m.locked === true,
        resolved: pins(resolved),
      };
    } catch {
      // No marker (not an environment benchgrid built), or an interpreter that does not start.
    }
  }
  return out;
}

/** The results with `run.environments` added, when any environment recorded its resolved set. */
export async function withEnvironments<R extends { run: Record<string, unknown> | null }>(
  results: R,
  pythons: Record<string, string>,
): Promise<R> {
  const environments = await recordedEnvironments(pythons);
  if (Object.keys(environments).length === 0) return results;
  return { ...results, run: { ...(results.run ?? {}), environments } };
}
