// `benchgrid env list|build|prune <spec...>`: the cached Python environments of specs, their disk cost, and
// removing the ones no longer needed.
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir, MARKER, resolveEnv, type ResolvedEnv } from '../run/environments.ts';
import { DiskUsage, formatBytes } from '../run/disk.ts';
import { ensureEnv } from '../run/layered-env.ts';
import { choosePrune, type CachedEnv } from '../run/prune.ts';
import type { Environment } from '../spec/types.ts';
import { UserError } from '../errors.ts';
import { loadDeclaredOrExit } from './load-or-exit.ts';

/** Options of `env`. */
export interface EnvOptions {
  json?: boolean;
  /** prune: only environments built more than this many days ago. */
  olderThan?: string;
  /** prune: really delete (default: print what would go). */
  yes?: boolean;
}

interface Entry {
  environments: Record<string, Environment>;
  name: string;
  r: ResolvedEnv;
}

async function collect(files: string[]): Promise<Entry[]> {
  const seen = new Map<string, Entry>();
  for (const file of files) {
    const spec = await loadDeclaredOrExit(file);
    // Bases before their layers, so a layer's size is what it adds.
    const names = Object.keys(spec.environments).sort((a, b) => Number(spec.environments[a].layer !== null) - Number(spec.environments[b].layer !== null));
    for (const name of names) {
      const r = await resolveEnv(spec.environments[name]);
      if (!seen.has(r.dir)) seen.set(r.dir, { environments: spec.environments, name, r });
    }
  }
  return [...seen.values()];
}

/** Lists (with cache state and disk cost), builds, or prunes the environments the given specs declare. */
export async function env(action: 'list' | 'build' | 'prune', files: string[], opts: EnvOptions): Promise<void> {
  if (action === 'prune') return prune(files, opts);
  const all = await collect(files);
  if (action === 'build') {
    for (const e of all) {
      const built = await ensureEnv(e.environments, e.name, (s) => process.stderr.write(`benchgrid: ${s}\n`));
      process.stderr.write(`benchgrid: environment '${e.r.env.id}' ready: ${built.python}\n`);
    }
    return;
  }
  const du = new DiskUsage();
  const rows = all.map(({ r }) => ({ r, bytes: r.built ? du.measure(r.dir) : 0 }));
  if (opts.json) {
    const out = rows.map(({ r, bytes }) => ({ id: r.env.id, dir: r.dir, python: r.python, built: r.built, interpreter: r.interpreter, requirements: r.env.requirements, layer: r.env.layer, disk_bytes: bytes }));
    process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return;
  }
  for (const { r, bytes } of rows) {
    const cost = r.built ? formatBytes(bytes) : '-';
    const holds = r.built && r.env.layer ? layerHolds(r.dir) : null;
    const layer = r.env.layer ? `; a layer over '${r.env.layer.base}' adding ${r.env.layer.requirements.join(', ')}${holds ? ` (it holds ${holds})` : ''}` : '';
    process.stdout.write(`${r.env.id}\t${r.built ? 'built' : 'missing'}\t${cost}\t${r.dir}\n  python ${r.interpreter.version} (${r.interpreter.path}); ${r.env.requirements.join(', ') || 'no requirements'}${layer}\n`);
  }
  const layers = rows.filter((x) => x.r.env.layer !== null);
  const total = rows.reduce((s, x) => s + x.bytes, 0);
  const extra = layers.reduce((s, x) => s + x.bytes, 0);
  process.stdout.write(`disk: ${formatBytes(total)} in all (hard-linked files counted once)${layers.length ? `; ${layers.length} release layer(s): ${formatBytes(extra)} beyond their base environments` : ''}\n`);
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
  if (days !== null && !(Number.isFinite(days) && days >= 0)) throw new UserError(`--older-than ${opts.olderThan}: not a number of days. Give e.g. --older-than 30.`);
  if (files.length === 0 && days === null) throw new UserError('env prune needs specs (remove environments they do not use) or --older-than DAYS, or both.');
  const used = files.length > 0 ? new Set((await collect(files)).map((e) => e.r.dir)) : null;
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
  process.stdout.write(`${chosen.length} environment(s), ${formatBytes(freed)}${opts.yes ? ' freed' : ' would be freed; run again with --yes to remove them'}\n`);
}
