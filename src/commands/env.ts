// `benchgrid env list|build|prune <spec...>`: the cached Python environments of specs, their disk cost, and
// removing the ones no longer needed.
import fs from 'node:fs';
import path from 'node:path';
import { listEnvs, type ListedEnv } from '../env/list.ts';
import { alive, cacheDir, MARKER } from '../env/build.ts';
import { DiskUsage, formatBytes } from '../executors/local/disk.ts';
import { ensureEnv, type SpecLocks } from '../env/layered.ts';
import { lockPath, readLock, writeLock, type LockedEnv } from '../env/lock.ts';
import { indexIdentity } from '../env/pip-index.ts';
import { resolvedSet, type ResolvedPackage } from '../env/resolved.ts';
import { duringBuilds } from '../env/interrupt.ts';
import { choosePrune, chooseStaleBuilds, type CachedEnv } from '../env/prune.ts';
import type { Environment } from '../spec/types.ts';
import { UserError } from '../errors.ts';
import { loadDeclaredSpec } from '../spec/load.ts';

/** Options of `env`. */
export interface EnvOptions {
  json?: boolean;
  /** prune: only environments built more than this many days ago. */
  olderThan?: string;
  /** prune: really delete (default: print what would go). */
  yes?: boolean;
}

type Collected = { environments: Record<string, Environment>; env: Environment; locks: SpecLocks | null };

/** Every environment of the specs, each once, bases before the layers over them, with its spec's lock. */
async function collect(files: string[]): Promise<Collected[]> {
  const seen = new Map<string, Collected>();
  for (const file of files) {
    const spec = await loadDeclaredSpec(file);
    const lock = readLock(spec.file);
    for (const e of Object.values(spec.environments)) {
      const key = JSON.stringify([e.id, e.python, [...e.requirements].sort(), e.index, lock ? spec.file : null]);
      if (!seen.has(key))
        seen.set(key, { environments: spec.environments, env: e, locks: lock ? { lock, specFile: spec.file } : null });
    }
  }
  return [...seen.values()].sort((a, b) => Number(a.env.layer !== null) - Number(b.env.layer !== null));
}

/** Lists (with cache state and disk cost), builds, or prunes the environments the given specs declare. */
export async function env(
  action: 'list' | 'build' | 'prune' | 'lock',
  files: string[],
  opts: EnvOptions,
): Promise<void> {
  if (action === 'prune') return prune(files, opts);
  if (action === 'lock') return duringBuilds(() => lockSpecs(files));
  const all = await collect(files);
  if (action === 'list') return list(listEnvs(all.map((x) => x.env)), opts);
  // SIGINT/SIGTERM stop the builds: pip's process tree killed, the unfinished directory removed, exit 130.
  await duringBuilds(async () => {
    for (const { environments, env: e, locks } of all) {
      const built = await ensureEnv(environments, e.id, (s) => process.stderr.write(`benchgrid: ${s}\n`), locks);
      process.stderr.write(`benchgrid: environment '${e.id}' ready: ${built.python}\n`);
    }
  });
}

/**
 * Writes each spec's lock (SPEC.lock.json): the resolved set of each environment that is not a layer, read
 * from its build (built first if missing). Always from the requirements, never from the lock it replaces,
 * so locking again is how a lock is brought up to date.
 */
async function lockSpecs(files: string[]): Promise<void> {
  const log = (s: string) => process.stderr.write(`benchgrid: ${s}\n`);
  for (const file of files) {
    const spec = await loadDeclaredSpec(file);
    const environments: Record<string, LockedEnv> = {};
    for (const e of Object.values(spec.environments)) {
      if (e.layer) continue;
      const r = await ensureEnv(spec.environments, e.id, log, null);
      const resolved = markerResolved(r.dir) ?? (await resolvedSet(r.python));
      environments[e.id] = {
        python: r.interpreter.version,
        requirements: e.requirements,
        ...indexIdentity(e.index),
        resolved,
      };
    }
    const written = writeLock(spec.file, { benchgrid_lock: 1, spec: spec.name, environments });
    const counts = Object.entries(environments)
      .map(([id, l]) => `${id}: ${l.resolved.length} packages`)
      .join('; ');
    process.stdout.write(
      `wrote ${path.relative(process.cwd(), written) || lockPath(spec.file)} (${counts || 'no environments'})\n`,
    );
  }
}

/** The resolved set a build recorded in its marker; null for one built before markers recorded it. */
function markerResolved(dir: string): ResolvedPackage[] | null {
  try {
    const r = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'))?.resolved;
    return Array.isArray(r) ? (r as ResolvedPackage[]) : null;
  } catch {
    return null;
  }
}

/** Lists each environment with its cached builds and their disk cost; starts no interpreter (docs/security.md). */
function list(listed: ListedEnv[], opts: EnvOptions): void {
  const du = new DiskUsage();
  const rows = listed.map(({ env: e, builds }) => ({
    env: e,
    builds: builds.map((b) => ({ ...b, disk_bytes: du.measure(b.dir), holds: layerHolds(b.dir) })),
  }));
  if (opts.json) {
    const out = rows.map(({ env: e, builds }) => ({
      id: e.id,
      python: e.python,
      requirements: e.requirements,
      layer: e.layer,
      built: builds.length > 0,
      builds,
    }));
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return;
  }
  for (const { env: e, builds } of rows) {
    const layer = e.layer ? `; a layer over '${e.layer.base}' adding ${e.layer.requirements.join(', ')}` : '';
    const where = builds
      .map(
        (b) =>
          `\n  built with python ${b.interpreter.version} (${b.interpreter.path}): ${formatBytes(b.disk_bytes)}${b.holds ? ` holding ${b.holds}` : ''}: ${b.dir}`,
      )
      .join('');
    const cost = builds.length ? formatBytes(builds.reduce((s, b) => s + b.disk_bytes, 0)) : '-';
    process.stdout.write(
      `${e.id}\t${builds.length ? 'built' : 'missing'}\t${cost}\tpython: ${e.python}; ${e.requirements.join(', ') || 'no requirements'}${layer}${where}\n`,
    );
  }
  const bytes = (r: (typeof rows)[number]) => r.builds.reduce((s, b) => s + b.disk_bytes, 0);
  const layers = rows.filter((r) => r.env.layer !== null);
  const total = rows.reduce((s, r) => s + bytes(r), 0);
  const extra = layers.reduce((s, r) => s + bytes(r), 0);
  process.stdout.write(
    `disk: ${formatBytes(total)} in all (hard-linked files counted once)${layers.length ? `; ${layers.length} layer(s): ${formatBytes(extra)} beyond their base environments` : ''}\n`,
  );
}

/** What a built layer holds itself, from its marker: `captum==0.8.0, numpy==1.26.4`. */
function layerHolds(dir: string): string | null {
  try {
    const installed = JSON.parse(fs.readFileSync(path.join(dir, MARKER), 'utf8'))?.layer?.installed;
    return Array.isArray(installed) && installed.length > 0 ? installed.join(', ') : null;
  } catch {
    return null;
  }
}

function cachedEnvs(): { cached: CachedEnv[]; bases: Map<string, string> } {
  const root = path.join(cacheDir(), 'envs');
  const cached: CachedEnv[] = [];
  const bases = new Map<string, string>();
  const names = fs.existsSync(root) ? fs.readdirSync(root) : [];
  for (const name of names) {
    const marker = path.join(root, name, MARKER);
    if (!fs.existsSync(marker)) continue; // a build in progress, a lock or a log: never ours to remove
    const dir = path.join(root, name);
    cached.push({ dir, usedAt: fs.statSync(marker).mtimeMs });
    try {
      const base = JSON.parse(fs.readFileSync(marker, 'utf8'))?.layer?.base;
      if (typeof base === 'string') bases.set(dir, base);
    } catch {
      // An unreadable marker: the environment is still listed; it simply names no base.
    }
  }
  return { cached, bases };
}

async function prune(files: string[], opts: EnvOptions): Promise<void> {
  const days = opts.olderThan === undefined ? null : Number(opts.olderThan);
  if (days !== null && !(Number.isFinite(days) && days >= 0))
    throw new UserError(`--older-than ${opts.olderThan}: not a number of days. Give e.g. --older-than 30.`);
  if (files.length === 0 && days === null)
    throw new UserError('env prune needs specs (remove environments they do not use) or --older-than DAYS, or both.');
  const used =
    files.length > 0
      ? new Set(listEnvs((await collect(files)).map((x) => x.env)).flatMap((l) => l.builds.map((b) => b.dir)))
      : null;
  const { cached, bases } = cachedEnvs();
  const first = choosePrune(cached, { used, olderThanDays: days, now: Date.now(), keep: new Set() });
  const going = new Set(first.map((c) => c.dir));
  // A base stays while any layer over it stays.
  const keep = new Set([...bases].filter(([layer]) => !going.has(layer)).map(([, base]) => base));
  const chosen = choosePrune(cached, { used, olderThanDays: days, now: Date.now(), keep });
  const du = new DiskUsage();
  let freed = 0;
  for (const c of chosen) {
    const bytes = du.measure(c.dir);
    freed += bytes;
    process.stdout.write(`${opts.yes ? 'removing' : 'would remove'} ${c.dir} (${formatBytes(bytes)}): ${c.why}\n`);
    if (opts.yes) {
      fs.rmSync(c.dir, { recursive: true, force: true });
      fs.rmSync(`${c.dir}.build.log`, { force: true });
    }
  }
  // Whatever the specs and the age limit: an unfinished build whose process is gone is never completed.
  const root = path.join(cacheDir(), 'envs');
  const stale = chooseStaleBuilds(fs.existsSync(root) ? fs.readdirSync(root) : [], alive);
  for (const s of stale) {
    const dir = path.join(root, s.name);
    const bytes = du.measure(dir);
    freed += bytes;
    process.stdout.write(`${opts.yes ? 'removing' : 'would remove'} ${dir} (${formatBytes(bytes)}): ${s.why}\n`);
    if (opts.yes) fs.rmSync(dir, { recursive: true, force: true });
  }
  const unfinished = stale.length > 0 ? ` and ${stale.length} unfinished build(s)` : '';
  process.stdout.write(
    `${chosen.length} environment(s)${unfinished}, ${formatBytes(freed)}${opts.yes ? ' freed' : ' would be freed; run again with --yes to remove them'}\n`,
  );
}
