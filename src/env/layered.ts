// Environments of one release of a versioned tool: a small venv layered over its base environment.
// Its site-packages holds only the pinned release (and anything that release needs that the base lacks);
// a .pth file adds the base's site-packages behind it, so N releases cost N small layers, not N torches.
// What the base's spec pins (torch, torchvision, the other tools) is held at its version with a pip
// constraint: a release that needs another torch fails to build instead of installing a second one. A
// dependency the spec does not pin may move when a release requires it (captum 0.8.0 needs numpy<2);
// the layer records what it holds, and `env list` prints it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { EXIT, UserError } from '../errors.ts';
import { pipInstall } from './pip-progress.ts';
import { lockDigest, lockedFor, type SpecLock } from './lock.ts';
import { pins, resolvedSet } from './resolved.ts';
import { checkIndexDirectories, pipIndexArgs } from './pip-index.ts';
import type { Environment } from '../spec/types.ts';
import { requirementName } from '../spec/versions.ts';
import {
  buildEnv,
  discardBuild,
  failedRequirement,
  lock,
  MARKER,
  placeBuilt,
  resolveEnv,
  type ResolvedEnv,
} from './build.ts';
import { sourceInstall } from './source.ts';
import { startTree, throwIfInterrupted, underway } from './interrupt.ts';

/** What one layer installs over its base. */
export interface LayerInstall {
  /** The packages it installs: the base's pins of these are lifted, every other pin is held. */
  packages: string[];
  /** Words for the log line and errors: `torchlens==2.35.4`, `torchlens from /src/torchlens (git.1a2b3c4)`. */
  what: string;
  /** pip's arguments after the constraints; may write into `work`, a scratch directory removed after the build. */
  args(work: string): Promise<string[]>;
  /** What the marker records about the build, from what the layer holds (`name==version` lines); throws when it is wrong. */
  record?(installed: string[]): Record<string, unknown>;
}

/** A spec's lock (lock.ts) and the spec file it lies beside (for its messages). */
export interface SpecLocks {
  lock: SpecLock;
  specFile: string;
}

/**
 * Builds (if needed) the environment named `name` of a spec's environments, layers over their bases; an
 * environment the spec's lock names is built from the lock. A layer itself is not locked (its pins are
 * exact releases), but over a locked base it is a layer of its own, constrained by the base's locked set.
 */
export async function ensureEnv(
  environments: Record<string, Environment>,
  name: string,
  log: (line: string) => void,
  locks: SpecLocks | null = null,
): Promise<ResolvedEnv> {
  const env = environments[name];
  const lockOf = (version: string) => (locks ? lockedFor(locks.lock, env, locks.specFile, version) : null);
  const r = await resolveEnv(env, lockOf, env.layer ? baseLockOf(environments, env.layer.base, locks) : null);
  if (env.layer === null) return buildEnv(r, log);
  if (r.built) return r;
  const base = await ensureEnv(environments, env.layer.base, log, locks);
  const release = await lock(`${r.dir}.lock`, log);
  try {
    if (fs.existsSync(path.join(r.dir, MARKER))) return { ...r, built: true };
    const pins = env.layer.requirements;
    const install: LayerInstall = env.layer.source
      ? sourceInstall(env.layer.source)
      : { packages: pins.map(requirementName), what: pins.join(', '), args: async () => pins };
    return await buildLayer(r, base, install, log);
  } finally {
    release();
  }
}

/** The lock digest of the bottom base under a layer, or null when that base is not locked. */
function baseLockOf(environments: Record<string, Environment>, name: string, locks: SpecLocks | null): string | null {
  const env = environments[name];
  if (!locks || !env) return null;
  if (env.layer) return baseLockOf(environments, env.layer.base, locks);
  const l = Object.hasOwn(locks.lock.environments, name) ? locks.lock.environments[name] : null;
  return l ? lockDigest(l) : null;
}

async function purelib(python: string): Promise<string> {
  const r = await execa(python, ['-c', "import sysconfig; print(sysconfig.get_paths()['purelib'])"], {
    timeout: 60_000,
  });
  return r.stdout.trim();
}

/** The base's declared requirements but those of the packages the layer installs. */
export function baseConstraints(baseRequirements: string[], packages: string[]): string[] {
  const pinned = new Set(packages.map(requirementName));
  return baseRequirements.filter((l) => !pinned.has(requirementName(l)));
}

/** `name==version` of what the layer itself holds (not what it sees through the base). */
async function layerContents(python: string, site: string): Promise<string[]> {
  const r = await execa(
    python,
    ['-m', 'pip', 'list', '--format=freeze', '--disable-pip-version-check', '--path', site],
    { timeout: 120_000, reject: false },
  );
  return r.stdout.split('\n').filter((l) => l.includes('=='));
}

async function buildLayer(
  r: ResolvedEnv,
  base: ResolvedEnv,
  install: LayerInstall,
  log: (line: string) => void,
): Promise<ResolvedEnv> {
  checkIndexDirectories(r.env);
  const tmp = `${r.dir}.building-${process.pid}`;
  const logFile = `${r.dir}.build.log`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-layer-'));
  fs.rmSync(tmp, { recursive: true, force: true });
  log(
    `building environment '${r.env.id}' as a layer over '${base.env.id}' (${install.what}) in ${r.dir}; log: ${logFile}`,
  );
  const finished = underway(`environment '${r.env.id}' (a layer over '${base.env.id}')`, tmp);
  const out = { stdout: { file: logFile, append: true }, stderr: { file: logFile, append: true } } as const;
  let installed: string[] = [];
  let recorded: Record<string, unknown> = {};
  let resolved: Awaited<ReturnType<typeof resolvedSet>> = [];
  try {
    fs.writeFileSync(logFile, '');
    // No pip of its own: the base's pip, found through the .pth, installs into this prefix. Layers stay
    // with pip: uv reads what an environment holds from its own site-packages only, not from the base
    // behind the .pth, and would install a second torch into every layer.
    await startTree('venv', r.interpreter.path, ['-m', 'venv', '--without-pip', tmp], out);
    const python = path.join(tmp, 'bin', 'python');
    const site = await purelib(python);
    // addsitedir (not a bare path) so the base's own .pth files are honoured too.
    fs.writeFileSync(
      path.join(site, '_benchgrid_base.pth'),
      `import site; site.addsitedir(${JSON.stringify(await purelib(base.python))})\n`,
    );
    const constraints = path.join(tmp, 'base-constraints.txt');
    fs.writeFileSync(
      constraints,
      baseConstraints(base.locked ? pins(base.locked.resolved) : base.env.requirements, install.packages).join('\n') +
        '\n',
    );
    await pipInstall(
      python,
      [...pipIndexArgs(r.env.index), '-c', constraints, ...(await install.args(work))],
      logFile,
      r.env.id,
      log,
    );
    installed = await layerContents(python, site);
    recorded = install.record?.(installed) ?? {};
    resolved = await resolvedSet(python);
    throwIfInterrupted();
  } catch (error) {
    discardBuild(tmp, finished);
    throw layerFailed(r, base, install, logFile, error);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const layer = { base: base.dir, pins: r.env.layer?.requirements ?? [], installed, ...recorded };
  return placeBuilt(r, tmp, finished, { layer, installer: 'pip' }, resolved);
}

/** Lines of a build log kept in an error: enough for pip's or a build backend's own message. */
const LOG_TAIL_LINES = 30;

/**
 * The error of a failed layer build: its first line says what failed (a run records it as the reason of
 * every cell in that environment), then the end of the build's log.
 */
function layerFailed(
  r: ResolvedEnv,
  base: ResolvedEnv,
  install: LayerInstall,
  logFile: string,
  error: unknown,
): UserError {
  const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
  const why = error instanceof UserError ? error.message : failedRequirement(text, [install.what]);
  const tail = text.trimEnd().split('\n').slice(-LOG_TAIL_LINES).join('\n');
  return new UserError(
    `building environment '${r.env.id}' failed: ${why} (what '${base.env.id}' pins is held at its version). Full log: ${logFile}${tail ? `\n${tail}` : ''}`,
    EXIT.runFailed,
  );
}
