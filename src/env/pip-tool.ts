// A pinned program that ships as a PyPI package (uv, ruff), installed by benchgrid itself with pip into a small
// venv of its own under the cache's tools/, so a machine with only Python gets it. The venv is built aside and
// renamed into place, so a tools directory that exists is complete.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { cacheDir, lock } from './build.ts';
import { bundledWheels } from './bundled-pip.ts';

/** One such program: its PyPI name and release (also the name of its binary), and what it is for, for the log. */
export interface PipTool {
  name: string;
  version: string;
  purpose: string;
}

/** Where a pinned tool lives: tools/NAME-VERSION, its own venv. */
export function toolHome(tool: PipTool, cache: string = cacheDir()): string {
  return path.join(cache, 'tools', `${tool.name}-${tool.version}`);
}

/** The tool's binary, installed on first use (once across processes: a lock beside its directory). */
export async function pipTool(tool: PipTool, python: string, log: (line: string) => void): Promise<string> {
  const home = toolHome(tool);
  const bin = path.join(home, 'bin', tool.name);
  if (fs.existsSync(bin)) return bin;
  // A cache moved elsewhere (BENCHGRID_CACHE: a test's, a CI job's) uses the same release from the
  // default cache when it is there, rather than installing it again for every new cache directory.
  const defaultCache = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'benchgrid');
  const shared = path.join(toolHome(tool, defaultCache), 'bin', tool.name);
  if (fs.existsSync(shared)) return shared;
  const release = await lock(`${home}.lock`, log);
  try {
    if (fs.existsSync(bin)) return bin;
    const tmp = `${home}.building-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    log(`installing ${tool.name} ${tool.version} (${tool.purpose}) in ${home}`);
    try {
      // The interpreter's bundled pip run from its wheel (pip runs from a wheel on sys.path) installs into a
      // venv made without pip: the 3 s ensurepip spends putting pip into a venv that needs it once are saved.
      const wheels = await bundledWheels(python);
      await execa(python, ['-m', 'venv', ...(wheels ? ['--without-pip'] : []), tmp], { timeout: 120_000 });
      // pip with this machine's own configuration: a mirror or wheel directory it names serves the tool too.
      const pip = [...(wheels ? [path.join(wheels.pip, 'pip')] : ['-m', 'pip']), 'install'];
      const quiet = ['--disable-pip-version-check', '--no-input', '--quiet'];
      await execa(path.join(tmp, 'bin', 'python'), [...pip, ...quiet, `${tool.name}==${tool.version}`], {
        timeout: 300_000,
      });
      await execa(path.join(tmp, 'bin', tool.name), ['--version'], { timeout: 30_000 });
    } catch (error) {
      fs.rmSync(tmp, { recursive: true, force: true });
      const e = error as { stderr?: string; message: string };
      const why = (e.stderr ?? '')
        .trim()
        .split('\n')
        .filter((l) => /error/i.test(l))
        .pop();
      throw new Error(why ?? e.message);
    }
    fs.rmSync(home, { recursive: true, force: true });
    fs.renameSync(tmp, home);
    return bin;
  } finally {
    release();
  }
}
