// Interrupted builds: SIGTERM or SIGINT during `env build` (or the builds `run` does first) kills pip's whole
// process tree, removes the unfinished `.building-PID` directory and ends with one line and exit 130.
// pip installs from a local "index" (PIP_FIND_LINKS, PIP_NO_INDEX): an sdist whose in-tree build backend
// writes its pid and sleeps, so the signal lands while pip's build backend runs.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpdir, write } from '../helpers.ts';
import { oneEnvSpec } from './fixtures.ts';

/** A find-links directory holding `slowpkg-1.0.tar.gz`, whose build backend writes its pid to $SLOWPKG_PIDFILE and sleeps. */
async function slowIndex(dir: string): Promise<string> {
  const src = path.join(dir, 'src', 'slowpkg-1.0');
  write(
    src,
    'pyproject.toml',
    `[build-system]
requires = []
build-backend = "slowbackend"
backend-path = ["."]

[project]
name = "slowpkg"
version = "1.0"
`,
  );
  write(src, 'PKG-INFO', 'Metadata-Version: 2.1\nName: slowpkg\nVersion: 1.0\n');
  write(
    src,
    'slowbackend.py',
    `import os, time

def _hold():
    tmp = os.environ["SLOWPKG_PIDFILE"] + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(os.getpid()))
    os.replace(tmp, os.environ["SLOWPKG_PIDFILE"])
    time.sleep(600)

def get_requires_for_build_wheel(config_settings=None):
    _hold()
    return []

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _hold()
`,
  );
  const links = path.join(dir, 'links');
  fs.mkdirSync(links);
  await execa('tar', ['-czf', path.join(links, 'slowpkg-1.0.tar.gz'), '-C', path.dirname(src), 'slowpkg-1.0']);
  return links;
}

function slowSpec(dir: string): string {
  return oneEnvSpec(dir, 'slow.yaml', {
    name: 'slowenv',
    title: 'A slow environment',
    env: 'slow',
    requirement: 'slowpkg==1.0',
  });
}

/** Whether a process runs (a zombie, ended but not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Linux: the state follows the parenthesised command name in /proc/PID/stat.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\S+ \(.*\) Z/.test(stat);
  } catch {
    return process.platform !== 'linux';
  }
}

/** The processes (Linux) whose command line names `text`. */
function processesNaming(text: string): number[] {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (cmd.includes(text) && running(Number(name))) out.push(Number(name));
    } catch {
      // ended while listed
    }
  }
  return out;
}

/** Starts `benchgrid ARGS` with the slow index, waits until pip's build backend runs, sends `signal`; the outcome. */
async function interruptBuild(args: (spec: string, dir: string) => string[], signal: NodeJS.Signals) {
  const dir = tmpdir();
  const cache = path.join(dir, 'cache');
  const pidFile = path.join(dir, 'backend.pid');
  const env = {
    NO_COLOR: '1',
    BENCHGRID_CACHE: cache,
    PIP_FIND_LINKS: await slowIndex(dir),
    PIP_NO_INDEX: '1',
    SLOWPKG_PIDFILE: pidFile,
  };
  const child = execa(process.execPath, [path.join(ROOT, 'bin/benchgrid.js'), ...args(slowSpec(dir), dir)], {
    reject: false,
    env,
    stdin: 'ignore',
    timeout: 120_000,
  });
  const deadline = Date.now() + 90_000;
  while (!fs.existsSync(pidFile) && child.exitCode === null && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  expect(fs.existsSync(pidFile), 'the build backend never started').toBe(true);
  const backend = Number(fs.readFileSync(pidFile, 'utf8'));
  expect(running(backend)).toBe(true);
  child.kill(signal);
  const r = await child;
  const envs = path.join(cache, 'envs');
  return { r, backend, cache, dir, left: fs.existsSync(envs) ? fs.readdirSync(envs) : [] };
}

describe('an interrupted environment build', () => {
  it('SIGTERM during env build: exit 130, one line naming the build and what was cleaned up, no process and no .building directory left', async () => {
    const { r, backend, cache, left } = await interruptBuild((spec) => ['env', 'build', spec], 'SIGTERM');
    expect(r.exitCode, r.stderr).toBe(130);
    const last = r.stderr.trimEnd().split('\n').pop() ?? '';
    expect(last).toMatch(
      /^benchgrid: SIGTERM: interrupted building environment 'slow'; stopped (pip|uv) with every process started under it, and removed the unfinished \S+\/envs\/slow-[0-9a-f]{16}\.building-\d+\. Run the command again to build it\.$/,
    );
    expect(r.stderr.match(/interrupted/g)).toHaveLength(1);
    expect(running(backend)).toBe(false);
    expect(processesNaming(cache)).toEqual([]);
    expect(left.filter((n) => n.includes('.building-'))).toEqual([]);
    // the lock is released, and nothing claims to be built
    expect(left.filter((n) => n.endsWith('.lock'))).toEqual([]);
    expect(left.filter((n) => !n.endsWith('.build.log'))).toEqual([]);
  }, 120_000);

  it('SIGINT during the builds run does first: the same, and no run directory is left', async () => {
    const { r, backend, cache, dir, left } = await interruptBuild(
      (spec, d) => ['run', spec, '--out', path.join(d, 'run')],
      'SIGINT',
    );
    expect(r.exitCode, r.stderr).toBe(130);
    expect(r.stderr.trimEnd().split('\n').pop()).toMatch(
      /^benchgrid: SIGINT: interrupted building environment 'slow'; stopped (pip|uv) with every process started under it, and removed the unfinished \S+\.building-\d+\./,
    );
    expect(running(backend)).toBe(false);
    expect(processesNaming(cache)).toEqual([]);
    expect(left.filter((n) => n.includes('.building-') || n.endsWith('.lock'))).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'run'))).toBe(false);
  }, 120_000);
});
