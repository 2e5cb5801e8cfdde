// Python environments: cached virtual environments keyed by interpreter and requirements, built on first use.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { EXIT, UserError } from '../errors.ts';
import { bundledWheels } from './bundled-pip.ts';
import { checkIndexDirectories, indexIdentity } from './pip-index.ts';
import { install, uvFailure } from './install.ts';
import { lockDigest, type LockedEnv } from './lock.ts';
import { pins, resolvedSet, type ResolvedPackage } from './resolved.ts';
import { chooseInstaller, type Installer, UV_ENV, UV_VERSION } from './uv.ts';
import type { Environment } from '../spec/types.ts';
import { checkInterpreter } from './interpreter.ts';
import { BuildInterrupted, interrupted, startTree, throwIfInterrupted, underway } from './interrupt.ts';

/** Where benchgrid caches environments: $BENCHGRID_CACHE, else $XDG_CACHE_HOME/benchgrid, else ~/.cache/benchgrid. */
export function cacheDir(): string {
  if (process.env.BENCHGRID_CACHE) return path.resolve(process.env.BENCHGRID_CACHE);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'benchgrid');
}

/** An environment resolved to a directory in the cache. */
export interface ResolvedEnv {
  env: Environment;
  key: string;
  dir: string;
  python: string;
  interpreter: { path: string; version: string };
  built: boolean;
  /** The spec's lock of this environment (lock.ts): the build installs exactly its set. */
  locked: LockedEnv | null;
}

/** File written last into a built environment: its presence means the environment is complete. */
export const MARKER = 'benchgrid-env.json';

/**
 * Finds the base interpreter and computes the cache key; never builds. The installer (uv or pip) is not
 * part of the key: both install the same requirements from the same indexes, and the marker records the
 * resolved set each produced, so an environment built by either is found by both (every environment built
 * before uv keeps its key; CI's cached environments stay valid). A lock does change what is installed:
 * a locked environment adds its lock's digest (`lock`), and a layer over a locked base the base's
 * (`base_lock`), so neither key changes for a spec without a lock.
 */
export async function resolveEnv(
  env: Environment,
  lockOf: (pythonVersion: string) => LockedEnv | null = () => null,
  baseLock: string | null = null,
): Promise<ResolvedEnv> {
  const interpreter = await describeInterpreter(env.python);
  const locked = lockOf(interpreter.version);
  const lockIdentity = {
    ...(locked ? { lock: lockDigest(locked) } : {}),
    ...(baseLock ? { base_lock: baseLock } : {}),
  };
  // A different index may give other wheels for the same requirements; one that names none keeps the old key.
  const key = crypto
    .createHash('sha256')
    .update(
      JSON.stringify({
        python: interpreter.path,
        version: interpreter.version,
        requirements: [...env.requirements].sort(),
        ...indexIdentity(env.index),
        ...lockIdentity,
      }),
    )
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(cacheDir(), 'envs', `${env.id}-${key}`);
  return {
    env,
    key,
    dir,
    python: path.join(dir, 'bin', 'python'),
    interpreter,
    built: fs.existsSync(path.join(dir, MARKER)),
    locked,
  };
}

async function describeInterpreter(python: string): Promise<{ path: string; version: string }> {
  checkInterpreter(python);
  try {
    const r = await execa(python, ['-c', 'import sys; print(sys.executable); print(sys.version.split()[0])'], {
      timeout: 30_000,
    });
    const [exe, version] = r.stdout.trim().split('\n');
    return { path: fs.realpathSync(exe), version };
  } catch (error) {
    throw new UserError(
      `cannot start the Python interpreter '${python}' (${(error as Error).message.split('\n')[0]}). Install it, or set the environment's 'python' to an interpreter that exists.`,
      EXIT.runFailed,
    );
  }
}

/**
 * Builds the environment if it is not in the cache: a venv made in a temporary sibling directory,
 * pip-installed, then renamed into place, so a failed build never leaves a half environment behind.
 */
export async function buildEnv(r: ResolvedEnv, log: (line: string) => void): Promise<ResolvedEnv> {
  if (r.built) return r;
  const release = await lock(`${r.dir}.lock`, log);
  try {
    // Another benchgrid may have built it while this one waited for the lock.
    if (fs.existsSync(path.join(r.dir, MARKER))) return { ...r, built: true };
    return await buildLocked(r, log);
  } finally {
    release();
  }
}

/**
 * One builder per environment at a time (two runs, or parallel test workers, may ask at once): an
 * exclusive lock file holding the builder's pid; a lock whose process is gone is taken over.
 */
export async function lock(file: string, log: (line: string) => void): Promise<() => void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch {
      const holder = Number(fs.readFileSync(file, 'utf8'));
      if (!alive(holder)) {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (!told) log(`waiting for process ${holder}, which is building ${path.basename(file, '.lock')}`);
      told = true;
      await new Promise((r) => setTimeout(r, 1000));
      throwIfInterrupted();
    }
  }
}

/** Whether a process of this id runs (one of another user counts: kill answers EPERM). */
export function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function buildLocked(r: ResolvedEnv, log: (line: string) => void): Promise<ResolvedEnv> {
  checkIndexDirectories(r.env);
  const tmp = `${r.dir}.building-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(tmp), { recursive: true });
  const logFile = `${r.dir}.build.log`;
  log(`building environment '${r.env.id}' (${r.env.requirements.length} requirements) in ${r.dir}; log: ${logFile}`);
  const finished = underway(`environment '${r.env.id}'`, tmp);
  let installer: Installer = { kind: 'pip' };
  let resolved: Awaited<ReturnType<typeof resolvedSet>> = [];
  try {
    // A locked build installs the locked set exactly: every package pinned, none resolved again.
    const lines = r.locked ? pins(r.locked.resolved) : r.env.requirements;
    if (lines.length > 0) installer = await chooseInstaller(r.interpreter.path, log);
    // The venv of the interpreter itself, with its pip, which layers over this environment install with.
    const logs = { stdout: { file: logFile }, stderr: { file: logFile } };
    await makeVenv(r.interpreter.path, tmp, installer, logs);
    const python = path.join(tmp, 'bin', 'python');
    const reqFile = path.join(tmp, 'requirements.txt');
    fs.writeFileSync(reqFile, lines.join('\n') + '\n');
    if (lines.length > 0) {
      // The installer's output goes to the log file and, read on the way, to a progress line on stderr.
      await install(installer, {
        python,
        index: r.env.index,
        args: [...(r.locked ? ['--no-deps'] : []), '-r', reqFile],
        logFile,
        envId: r.env.id,
        log,
      });
    }
    resolved = await resolvedSet(python);
    throwIfInterrupted();
  } catch {
    discardBuild(tmp, finished);
    const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    throw new UserError(
      `building environment '${r.env.id}' failed: ${failedRequirement(text, r.env.requirements)}. Full log: ${logFile}`,
      EXIT.runFailed,
    );
  }
  const by = installer.kind === 'uv' ? { installer: `uv ${UV_VERSION}` } : { installer: 'pip' };
  return placeBuilt(r, tmp, finished, { ...by, locked: r.locked !== null }, resolved);
}

/**
 * `python -m venv DIR`, or, when uv installs the environment, a venv without pip and the interpreter's own
 * bundled pip and setuptools installed into it by uv (bundled-pip.ts): the same packages, 3 s sooner.
 */
async function makeVenv(
  interpreter: string,
  dir: string,
  installer: Installer,
  logs: { stdout: { file: string }; stderr: { file: string } },
): Promise<void> {
  const wheels = installer.kind === 'uv' ? await bundledWheels(interpreter) : null;
  if (installer.kind === 'uv' && wheels) {
    await startTree('venv', interpreter, ['-m', 'venv', '--without-pip', dir], logs);
    const python = path.join(dir, 'bin', 'python');
    // The wheels by path, nothing from an index or a configuration: exactly what ensurepip would install.
    const args = ['pip', 'install', '--python', python, '--no-index', '--no-deps', '--no-config', ...wheels.all];
    const appended = { stdout: { ...logs.stdout, append: true }, stderr: { ...logs.stderr, append: true } };
    await startTree('uv', installer.uv, args, { ...appended, env: UV_ENV });
    return;
  }
  await startTree('venv', interpreter, ['-m', 'venv', dir], logs);
}

/**
 * After a failed step of a build (a venv or a layer): the half-built directory is removed, or, when a signal
 * stopped the build, left to duringBuilds, which removes it once every process of the build has ended.
 */
export function discardBuild(tmp: string, finished: () => void): void {
  if (interrupted()) throw new BuildInterrupted();
  fs.rmSync(tmp, { recursive: true, force: true });
  finished();
}

/**
 * The last step of a build: the marker (what the environment is, `how` it was built, what it resolved to)
 * written into the finished directory, which then replaces `r.dir` in one rename, so that the marker's
 * presence means a complete environment.
 */
export function placeBuilt(
  r: ResolvedEnv,
  tmp: string,
  finished: () => void,
  how: Record<string, unknown>,
  resolved: ResolvedPackage[],
): ResolvedEnv {
  const marker = {
    id: r.env.id,
    key: r.key,
    interpreter: r.interpreter,
    requirements: r.env.requirements,
    ...indexIdentity(r.env.index),
    ...how,
    resolved,
    built: new Date().toISOString(),
  };
  fs.writeFileSync(path.join(tmp, MARKER), JSON.stringify(marker, null, 1) + '\n');
  fs.rmSync(r.dir, { recursive: true, force: true });
  fs.renameSync(tmp, r.dir);
  finished();
  return { ...r, built: true };
}

/** Names the requirement pip could not install, from its output. */
export function failedRequirement(pipOutput: string, requirements: string[]): string {
  const uv = uvFailure(pipOutput);
  if (uv) return uv;
  const patterns = [
    /Could not find a version that satisfies the requirement ([^\s(]+)/,
    /No matching distribution found for ([^\s(]+)/,
    /Failed to build ([^\s]+)/,
    /Cannot install ([^\n]+?) because these package versions have conflicting dependencies/,
  ];
  for (const p of patterns) {
    const m = pipOutput.match(p);
    if (m) {
      const named = m[1].trim();
      const line = pipOutput.split('\n').find((l) => /^ERROR:/.test(l));
      return `pip could not install '${named}'${line ? ` (${line.replace(/^ERROR:\s*/, '').slice(0, 200)})` : ''}`;
    }
  }
  const last = pipOutput
    .trim()
    .split('\n')
    .filter((l) => /error/i.test(l))
    .pop();
  return last ? `pip failed: ${last.slice(0, 300)}` : `pip failed while installing ${requirements.join(', ')}`;
}
