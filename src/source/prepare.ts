// From the command line's sources (or those a journal recorded) to the spec and plan a run measures:
// each source resolved (a resumed run's checked against the digest it started with), applied to the
// spec (src/source/apply.ts), and the spec planned again.
import { UserError } from '../errors.ts';
import { planSpec, type Plan } from '../plan/expand.ts';
import { adapterLookup, type Manifest } from '../spec/manifests.ts';
import type { Spec } from '../spec/types.ts';
import { SIDES, withSides, withToolSources, type Side, type Sides } from './apply.ts';
import { parseSource, parseToolSource, sourceText } from './parse.ts';
import { resolveSource } from './resolve.ts';
import type { ResolvedSource } from '../spec/types.ts';

/** One source as a run's journal keeps it: enough to find it again and to check that it did not change. */
export interface SourceRequest {
  /** The tool id or package named on the command line. */
  tool: string;
  /** bench-change's side, or null for `run --tool-source`. */
  side: Side | null;
  /** The source in the words of parse.ts: a path, `git:REPO@COMMIT`, or `pinned`. Absolute once recorded. */
  source: string;
  /** The digest it had when the run started; null for `pinned`, or before it was first resolved. */
  digest: string | null;
  /** The source as the user typed it (`git:main`, `.`), for reports; absent before it was first recorded. */
  given?: string;
}

/** A spec and plan with the sources applied. */
export interface Prepared {
  spec: Spec;
  plan: Plan;
  /** The source of each tool id that runs one (TOOL, or TOOL@base / TOOL@head), for the results. */
  byTool: Map<string, ResolvedSource>;
  /** What the journal records: absolute paths, commits instead of branch names, digests. */
  requests: SourceRequest[];
}

/** The requests of `--tool-source TOOL=SOURCE` options. */
export function toolSourceRequests(values: string[]): SourceRequest[] {
  return values.map((v) => {
    const { tool, source } = parseToolSource(v);
    return { tool, side: null, source: sourceText(source), digest: null };
  });
}

/** Resolves the requests and applies them; no requests: the spec and plan as they are. */
export async function prepareSources(
  loaded: { spec: Spec; plan: Plan; manifests: Record<string, Manifest | Error> },
  requests: SourceRequest[],
  cwd = process.cwd(),
): Promise<Prepared> {
  if (requests.length === 0) return { spec: loaded.spec, plan: loaded.plan, byTool: new Map(), requests };
  const resolved = await Promise.all(requests.map((r) => resolveRequest(r, cwd)));
  const recorded = requests.map((r, i) => recordOf(r, resolved[i]));
  const applied = requests.some((r) => r.side !== null)
    ? withSides(
        loaded.spec,
        requests[0].tool,
        Object.fromEntries(SIDES.map((s) => [s, resolved[requests.findIndex((r) => r.side === s)] ?? null])) as Sides,
      )
    : withToolSources(
        loaded.spec,
        requests.map((r, i) => ({ tool: r.tool, source: resolved[i]! })),
      );
  const { spec, byTool } = applied;
  return { spec, plan: planSpec(spec, adapterLookup(loaded.manifests)), byTool, requests: recorded };
}

/** Resolves one request; a recorded digest must still match (a resumed run measures what it started with). */
async function resolveRequest(r: SourceRequest, cwd: string): Promise<ResolvedSource | null> {
  const option = r.side === null ? `--tool-source ${r.tool}` : `--${r.side}`;
  const arg = parseSource(r.source, option, r.side !== null);
  if (arg.kind === 'pinned') return null;
  const s = await resolveSource(arg, option, cwd);
  if (r.digest !== null && s.digest !== r.digest) {
    throw new UserError(
      `${option}: ${s.text} changed since this run started (source digest ${r.digest.slice(0, 12)} -> ${s.digest.slice(0, 12)}); its results and the new code cannot be merged. Start a new run.`,
    );
  }
  return s;
}

/** The request as the journal keeps it: a git source by its commit, so a moved branch cannot change a resumed run. */
function recordOf(r: SourceRequest, s: ResolvedSource | null): SourceRequest {
  const given = r.given ?? r.source;
  if (s === null) return { ...r, source: 'pinned', digest: null, given };
  const source = s.kind === 'git' ? `git:${s.path}@${s.commit}` : s.text;
  return { ...r, source, digest: s.digest, given };
}
