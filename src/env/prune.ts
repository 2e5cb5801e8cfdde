// Which cached environments `env prune` removes: pure, from the cache listing, the environments in use and
// the age limit; the command does the deleting.

/** One environment directory in the cache. */
export interface CachedEnv {
  dir: string;
  /** When it was last built or used (the marker's mtime), ms since the epoch. */
  usedAt: number;
}

/** What to remove and why. */
export interface PruneChoice {
  dir: string;
  why: string;
}

/**
 * Environments to remove: with specs given, every cached one they do not use; with a day limit, every
 * one older than it; with both, those not used and too old. A base of a kept layer is always kept.
 */
export function choosePrune(
  cached: CachedEnv[],
  opts: { used: Set<string> | null; olderThanDays: number | null; now: number; keep: Set<string> },
): PruneChoice[] {
  const out: PruneChoice[] = [];
  for (const c of cached) {
    if (opts.keep.has(c.dir)) continue;
    const unused = opts.used !== null && !opts.used.has(c.dir);
    const ageDays = (opts.now - c.usedAt) / 86_400_000;
    const old = opts.olderThanDays !== null && ageDays > opts.olderThanDays;
    const why: string[] = [];
    if (opts.used !== null && !unused) continue;
    if (opts.olderThanDays !== null && !old) continue;
    if (unused) why.push('not used by the given specs');
    if (old) why.push(`last used or built ${Math.floor(ageDays)} days ago`);
    if (why.length > 0) out.push({ dir: c.dir, why: why.join(', ') });
  }
  return out;
}

/** The cache entry an interrupted or killed build leaves: `NAME-KEY.building-PID` (src/env/build.ts). */
const BUILDING = /^(.+)\.building-(\d+)$/;

/**
 * The unfinished build directories among the names in the cache's `envs/` whose builder is gone: a
 * `.building-PID` whose process is not alive was left by a build that was killed (SIGKILL, a power cut)
 * and is never finished; one whose process is alive is a build in progress and is kept.
 */
export function chooseStaleBuilds(
  names: string[],
  alive: (pid: number) => boolean,
): { name: string; pid: number; why: string }[] {
  const out: { name: string; pid: number; why: string }[] = [];
  for (const name of names) {
    const m = BUILDING.exec(name);
    if (!m) continue;
    const pid = Number(m[2]);
    if (alive(pid)) continue;
    out.push({ name, pid, why: `an unfinished build of ${m[1]} by process ${pid}, which is no longer running` });
  }
  return out;
}
