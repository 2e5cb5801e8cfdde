// A spec's lock: the resolved set of each of its environments (`benchgrid env lock SPEC`), written beside
// the spec as SPEC.lock.json (specs/resnet18_cpu.yaml -> specs/resnet18_cpu.lock.json). A build of an
// environment the lock names installs exactly that set, each package at its version and nothing resolved
// again (`--no-deps`), so two machines, or two months, hold the same transitive versions. A lock is data
// from the spec's tree like the spec itself: every name and version is checked to be only that, so no
// line of it can become an installer option.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { EXIT, UserError } from '../errors.ts';
import type { Environment, PackageIndex } from '../spec/types.ts';
import type { ResolvedPackage } from './resolved.ts';

/** The lock of one environment. */
export interface LockedEnv {
  /** The interpreter's version it was resolved for (a wheel may be built for one Python only). */
  python: string;
  /** The environment's declared requirements when locked: a lock of other requirements is stale. */
  requirements: string[];
  index?: PackageIndex;
  resolved: ResolvedPackage[];
}

/** The lock file of a spec. */
export interface SpecLock {
  benchgrid_lock: 1;
  spec: string;
  environments: Record<string, LockedEnv>;
}

/** Where a spec's lock lies: beside it, its name with `.lock.json` for `.yaml`. */
export function lockPath(specFile: string): string {
  return `${specFile.replace(/\.ya?ml$/, '')}.lock.json`;
}

const NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+!_-]*$/;
const HASH = /^[a-z0-9]+=[0-9a-f]+$/;

/** The spec's lock, or null when it has none; a lock that is not one is refused (exit 2). */
export function readLock(specFile: string): SpecLock | null {
  const file = lockPath(specFile);
  if (!specFile || !fs.existsSync(file)) return null;
  const bad = (what: string): never => {
    throw new UserError(
      `${file}: ${what}. Write it again with \`benchgrid env lock ${specFile}\`, or remove it to build without a lock.`,
      EXIT.usage,
    );
  };
  let data: unknown;
  try {
    data = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return bad(`not JSON (${(error as Error).message})`);
  }
  const d = data as Partial<SpecLock> | null;
  if (d?.benchgrid_lock !== 1 || typeof d.environments !== 'object' || d.environments === null)
    return bad('not a benchgrid lock (no "benchgrid_lock": 1 and "environments")');
  for (const [id, e] of Object.entries(d.environments)) {
    if (!e || typeof e.python !== 'string' || !Array.isArray(e.requirements) || !Array.isArray(e.resolved))
      bad(`environment '${id}' lacks python, requirements or resolved`);
    for (const p of e.resolved) {
      if (
        !p ||
        typeof p.name !== 'string' ||
        !NAME.test(p.name) ||
        typeof p.version !== 'string' ||
        !VERSION.test(p.version)
      )
        bad(`environment '${id}': ${JSON.stringify(p)} is not a package name and version`);
      if (p.hash !== undefined && (typeof p.hash !== 'string' || !HASH.test(p.hash)))
        bad(`environment '${id}': ${p.name}'s hash ${JSON.stringify(p.hash)} is not ALGORITHM=HEX`);
    }
  }
  return d as SpecLock;
}

/**
 * The lock of this environment, or null when the spec has no lock or the lock does not name it; a lock made
 * for other requirements or another Python is refused rather than silently installing what it no longer means.
 */
export function lockedFor(
  lock: SpecLock | null,
  env: Environment,
  specFile: string,
  pythonVersion: string,
): LockedEnv | null {
  const l = lock && Object.hasOwn(lock.environments, env.id) ? lock.environments[env.id] : null;
  if (!l || env.layer !== null) return null;
  const same = JSON.stringify([...l.requirements].sort()) === JSON.stringify([...env.requirements].sort());
  if (!same)
    throw new UserError(
      `${lockPath(specFile)}: environment '${env.id}' was locked for the requirements ${l.requirements.join(', ')}; the spec now declares ${env.requirements.join(', ')}. Lock it again: \`benchgrid env lock ${specFile}\`.`,
      EXIT.usage,
    );
  if (minor(l.python) !== minor(pythonVersion))
    throw new UserError(
      `${lockPath(specFile)}: environment '${env.id}' was locked with Python ${l.python}; this machine's interpreter is ${pythonVersion}. Lock it again here: \`benchgrid env lock ${specFile}\`.`,
      EXIT.usage,
    );
  return l;
}

function minor(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

/** What a locked build adds to the cache key: the locked set, so a new lock is a new environment. */
export function lockDigest(l: LockedEnv): string {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify(l.resolved.map((p) => [p.name, p.version])))
    .digest('hex')
    .slice(0, 16);
}

/** Writes the lock beside the spec (a temporary file renamed, so a reader never sees half of one). */
export function writeLock(specFile: string, lock: SpecLock): string {
  const file = lockPath(specFile);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(lock, null, 1) + '\n');
  fs.renameSync(`${file}.tmp`, file);
  return file;
}
