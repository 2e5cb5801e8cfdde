// Environments of one release of a versioned tool (issue 14): a small venv layered over its base environment.
// Its site-packages holds only the pinned release (and anything that release needs that the base lacks);
// a .pth file adds the base's site-packages behind it, so N releases cost N small layers, not N torches.
// What the base's spec pins (torch, torchvision, the other tools) is held at its version with a pip
// constraint: a release that needs another torch fails to build instead of installing a second one. A
// dependency the spec does not pin may move when a release requires it (captum 0.8.0 needs numpy<2);
// the layer records what it holds, and `env list` prints it.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { EXIT, UserError } from '../errors.ts';
import type { Environment } from '../spec/types.ts';
import { requirementName } from '../spec/versions.ts';
import { buildEnv, failedRequirement, lock, MARKER, resolveEnv, type ResolvedEnv } from './environments.ts';

/** Builds (if needed) the environment named `name` of a spec's environments, layers over their bases. */
export async function ensureEnv(environments: Record<string, Environment>, name: string, log: (line: string) => void): Promise<ResolvedEnv> {
  const env = environments[name];
  const r = await resolveEnv(env);
  if (env.layer === null) return buildEnv(r, log);
  if (r.built) return r;
  const base = await ensureEnv(environments, env.layer.base, log);
  const release = await lock(`${r.dir}.lock`, log);
  try {
    if (fs.existsSync(path.join(r.dir, MARKER))) return { ...r, built: true };
    return await buildLayer(r, base, env.layer.requirements, log);
  } finally {
    release();
  }
}

async function purelib(python: string): Promise<string> {
  const r = await execa(python, ['-c', "import sysconfig; print(sysconfig.get_paths()['purelib'])"], { timeout: 60_000 });
  return r.stdout.trim();
}

/** The base's declared requirements but the ones the layer pins. */
export function baseConstraints(baseRequirements: string[], pins: string[]): string[] {
  const pinned = new Set(pins.map(requirementName));
  return baseRequirements.filter((l) => !pinned.has(requirementName(l)));
}

/** `name==version` of what the layer itself holds (not what it sees through the base). */
async function layerContents(python: string, site: string): Promise<string[]> {
  const r = await execa(python, ['-m', 'pip', 'list', '--format=freeze', '--disable-pip-version-check', '--path', site], { timeout: 120_000, reject: false });
  return r.stdout.split('\n').filter((l) => l.includes('=='));
}

async function buildLayer(r: ResolvedEnv, base: ResolvedEnv, pins: string[], log: (line: string) => void): Promise<ResolvedEnv> {
  const tmp = `${r.dir}.building-${process.pid}`;
  const logFile = `${r.dir}.build.log`;
  fs.rmSync(tmp, { recursive: true, force: true });
  log(`building environment '${r.env.id}' as a layer over '${base.env.id}' (${pins.join(', ')}) in ${r.dir}; log: ${logFile}`);
  const out = { stdout: { file: logFile, append: true }, stderr: { file: logFile, append: true } } as const;
  let installed: string[] = [];
  try {
    fs.writeFileSync(logFile, '');
    // No pip of its own: the base's pip, found through the .pth, installs into this prefix.
    await execa(r.interpreter.path, ['-m', 'venv', '--without-pip', tmp], out);
    const python = path.join(tmp, 'bin', 'python');
    const site = await purelib(python);
    // addsitedir (not a bare path) so the base's own .pth files are honoured too.
    fs.writeFileSync(path.join(site, '_benchgrid_base.pth'), `import site; site.addsitedir(${JSON.stringify(await purelib(base.python))})\n`);
    const constraints = path.join(tmp, 'base-constraints.txt');
    fs.writeFileSync(constraints, baseConstraints(base.env.requirements, pins).join('\n') + '\n');
    await execa(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '-c', constraints, ...pins], out);
    installed = await layerContents(python, site);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true });
    const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    throw new UserError(`building environment '${r.env.id}' failed: ${failedRequirement(text, pins)} (what '${base.env.id}' pins is held at its version). Full log: ${logFile}`, EXIT.runFailed);
  }
  const marker = { id: r.env.id, key: r.key, interpreter: r.interpreter, requirements: r.env.requirements, layer: { base: base.dir, pins, installed }, built: new Date().toISOString() };
  fs.writeFileSync(path.join(tmp, MARKER), JSON.stringify(marker, null, 1) + '\n');
  fs.rmSync(r.dir, { recursive: true, force: true });
  fs.renameSync(tmp, r.dir);
  return { ...r, built: true };
}
