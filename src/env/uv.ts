// uv as the installer of environments: a pinned release of it, installed by benchgrid itself with pip into
// a small venv of its own under the cache (uv is a PyPI package), so a machine with only Python gets it. A
// machine that cannot have it (no index that carries it, BENCHGRID_INSTALLER=pip) builds with pip, said
// once in one line. uv resolves and installs the same requirements with the same index options and pins;
// it downloads in parallel and installs from its cache by hard links, which is where the time goes.
import { execa } from 'execa';
import { cacheDir } from './build.ts';
import { type PipTool, pipTool, toolHome } from './pip-tool.ts';

/** The uv release benchgrid installs: a newer one is an explicit change here (and a new tools directory). */
export const UV_VERSION = '0.13.9';

/** uv's environment in every call: the interpreter is named, so uv must never fetch one of its own. */
export const UV_ENV = { UV_PYTHON_DOWNLOADS: 'never', NO_COLOR: '1' } as const;

/** Which program installs an environment's requirements. */
export type Installer = { kind: 'uv'; uv: string } | { kind: 'pip' };

/** One answer per process: the bootstrap runs at most once, and the fallback note is said once. */
let chosen: Promise<Installer> | null = null;

/**
 * uv when it can be had, else pip. `BENCHGRID_INSTALLER=pip` asks for pip; `BENCHGRID_UV=PATH` names a uv
 * binary to use instead of the one benchgrid installs. `python` is the interpreter the bootstrap venv is made with.
 */
export function chooseInstaller(python: string, log: (line: string) => void): Promise<Installer> {
  const asked = process.env.BENCHGRID_INSTALLER;
  if (asked === 'pip') return Promise.resolve({ kind: 'pip' });
  if (process.env.BENCHGRID_UV) return Promise.resolve({ kind: 'uv', uv: process.env.BENCHGRID_UV });
  chosen ??= bootstrap(python, log).catch((error: Error) => {
    log(
      `uv ${UV_VERSION} could not be installed (${error.message.split('\n')[0].slice(0, 200)}); environments are built with pip`,
    );
    return { kind: 'pip' } as const;
  });
  return chosen;
}

/** The pinned uv as a tool benchgrid installs with pip. */
const UV: PipTool = { name: 'uv', version: UV_VERSION, purpose: 'the installer of environments' };

/** Where the pinned uv lives: its own venv, complete once its binary is there (renamed into place). */
export function uvHome(cache: string = cacheDir()): string {
  return toolHome(UV, cache);
}

async function bootstrap(python: string, log: (line: string) => void): Promise<Installer> {
  return { kind: 'uv', uv: await pipTool(UV, python, log) };
}

/**
 * The options of this machine's pip configuration (pip.conf, PIP_* variables) that uv does not read:
 * `python -m pip config list`, as `uv pip install` options. An environment that names no index is
 * built "with pip's own configuration" (docs/spec.md); with uv it must be the same configuration, or
 * a mirror or a constraint file the machine relies on would be skipped. Options the environment sets
 * itself are not taken from the configuration (on pip's command line they replace the configured ones).
 */
export async function pipConfigOptions(
  python: string,
  own: { index_url: boolean; extra_index_urls: boolean; find_links: boolean },
): Promise<string[]> {
  const r = await execa(python, ['-m', 'pip', 'config', 'list'], {
    reject: false,
    timeout: 60_000,
    env: { PIP_DISABLE_PIP_VERSION_CHECK: '1' },
  });
  return configOptions(r.exitCode === 0 ? r.stdout : '', own);
}

/** `pip config list` lines (`global.find-links='/opt/wheels'`, `:env:.constraint='...'`) as uv options; environment variables win. */
export function configOptions(
  listed: string,
  own: { index_url: boolean; extra_index_urls: boolean; find_links: boolean },
): string[] {
  const values = new Map<string, { rank: number; value: string }>();
  const rank = (scope: string) => (scope === ':env:' ? 3 : scope === 'install' ? 2 : scope === 'global' ? 1 : 0);
  for (const line of listed.split('\n')) {
    const m = /^([^.]*)\.([a-z-]+)='(.*)'$/.exec(line.trim());
    if (!m || rank(m[1]) === 0) continue;
    const had = values.get(m[2]);
    if (!had || rank(m[1]) >= had.rank) values.set(m[2], { rank: rank(m[1]), value: m[3] });
  }
  const each = (key: string) => (values.get(key)?.value ?? '').split(/\s+/).filter(Boolean);
  const out: string[] = [];
  if (!own.index_url) for (const v of each('index-url').slice(0, 1)) out.push('--index-url', v);
  if (!own.extra_index_urls) for (const v of each('extra-index-url')) out.push('--extra-index-url', v);
  if (!own.find_links) for (const v of each('find-links')) out.push('--find-links', v);
  for (const v of each('constraint')) out.push('--constraint', v);
  if (/^(1|true|yes|on)$/i.test(values.get('no-index')?.value ?? '')) out.push('--no-index');
  return out;
}

/** What uv is doing, read from one line of its output (stderr); null for lines that say nothing new. */
export function uvPhase(line: string): string | null {
  const m = /^\s*(Resolved|Prepared|Installed|Uninstalled|Downloading|Building)\s+(.*?)\s*$/.exec(line);
  if (!m) return null;
  const what = m[2].replace(/\s+in\s+[\d.]+m?s$/, '');
  return `${m[1].toLowerCase()} ${what}`;
}
