// Environments built with uv, and a spec's lock: real builds from a directory of tiny wheels made here
// (no network, no index: `index_url` is an empty directory), this machine's pip configuration switched off.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { lockPath, readLock } from '../../src/env/lock.ts';
import { configOptions, uvPhase } from '../../src/env/uv.ts';
import { uvFailure } from '../../src/env/install.ts';
import { cli, tmpdir, write } from '../helpers.ts';
import { layer2Spec } from './fixtures.ts';

const SPEC = layer2Spec({
  name: 'lockbuild',
  title: 'lock build',
  environments: `  main: { index_url: empty, find_links: [wheels], requirements: [bg-lock-app] }
  more: { over: main, requirements: [bg-lock-extra==0.1] }`,
});

/** A pure-Python wheel NAME-VERSION requiring `requires` (Requires-Dist lines). */
const WHEEL = `
import base64, hashlib, sys, zipfile
out, name, version, *requires = sys.argv[1:]
mod = name.replace('-', '_'); info = f'{mod}-{version}.dist-info'
meta = f'Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n' + ''.join(f'Requires-Dist: {r}\\n' for r in requires)
files = {f'{mod}/__init__.py': f'__version__ = {version!r}\\n'.encode(), f'{info}/METADATA': meta.encode(),
         f'{info}/WHEEL': b'Wheel-Version: 1.0\\nGenerator: benchgrid-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}
digest = lambda d: 'sha256=' + base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()
files[f'{info}/RECORD'] = (''.join(f'{p},{digest(d)},{len(d)}\\n' for p, d in files.items()) + f'{info}/RECORD,,\\n').encode()
with zipfile.ZipFile(f'{out}/{mod}-{version}-py3-none-any.whl', 'w') as z:
    for p, d in files.items(): z.writestr(p, d)
`;

async function wheel(dir: string, name: string, version: string, ...requires: string[]): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await execa('python3', ['-c', WHEEL, dir, name, version, ...requires]);
}

/** This machine's pip configuration (a mirror, a constraint file) off: the spec's wheel directory alone. */
const NO_PIP_CONFIG = { PIP_CONFIG_FILE: '/dev/null', PIP_FIND_LINKS: '', PIP_EXTRA_INDEX_URL: '', PIP_CONSTRAINT: '' };

type Marker = { key: string; installer: string; locked: boolean; resolved: { name: string; version: string }[] };

/** An environment of the spec as built in `cache`: its directory and marker. */
function built(cache: string, id = 'main'): { dir: string; marker: Marker } {
  const envs = path.join(cache, 'envs');
  const name = fs.readdirSync(envs).find((n) => new RegExp(`^${id}-[0-9a-f]{16}$`).test(n))!;
  return {
    dir: path.join(envs, name),
    marker: JSON.parse(fs.readFileSync(path.join(envs, name, 'benchgrid-env.json'), 'utf8')),
  };
}

const ours = (m: Marker) =>
  m.resolved.filter((p) => p.name.startsWith('bg-lock-')).map((p) => `${p.name}==${p.version}`);

describe('environments built with uv, and a lock', () => {
  it('builds from find_links with uv and no index; a build from the lock installs the same versions; pip builds under the same key', async () => {
    const dir = tmpdir();
    fs.mkdirSync(path.join(dir, 'empty'));
    await wheel(path.join(dir, 'wheels'), 'bg-lock-app', '1.0', 'bg-lock-dep>=1.0');
    await wheel(path.join(dir, 'wheels'), 'bg-lock-dep', '1.0');
    await wheel(path.join(dir, 'wheels'), 'bg-lock-extra', '0.1', 'bg-lock-dep');
    const spec = write(dir, 'lockbuild.yaml', SPEC);
    const run = (cache: string, args: string[], extra: Record<string, string> = {}) =>
      cli(args, { env: { ...NO_PIP_CONFIG, BENCHGRID_CACHE: path.join(dir, cache), ...extra }, timeout: 300_000 });

    const first = await run('one', ['env', 'build', spec]);
    expect(first.code, first.stderr).toBe(0);
    const one = built(path.join(dir, 'one'));
    expect(one.marker.installer).toMatch(/^uv \d/);
    expect(ours(one.marker)).toEqual(['bg-lock-app==1.0', 'bg-lock-dep==1.0']);
    expect(fs.readFileSync(`${one.dir}.build.log`, 'utf8')).toMatch(/^Resolved 2 packages/m);

    const locked = await run('one', ['env', 'lock', spec]);
    expect(locked.code, locked.stderr).toBe(0);
    expect(locked.stdout).toMatch(/^wrote .*lockbuild\.lock\.json \(main: \d+ packages\)$/m);
    expect(readLock(spec)?.environments.main.resolved).toEqual(one.marker.resolved);

    // A newer dependency appears: resolving again would take it; the lock installs what was locked.
    await wheel(path.join(dir, 'wheels'), 'bg-lock-dep', '1.1');
    const again = await run('two', ['env', 'build', spec]);
    expect(again.code, again.stderr).toBe(0);
    const two = built(path.join(dir, 'two'));
    expect(two.marker.locked).toBe(true);
    expect(two.marker.resolved.map((p) => [p.name, p.version])).toEqual(
      one.marker.resolved.map((p) => [p.name, p.version]),
    );
    expect(path.basename(two.dir)).not.toBe(path.basename(one.dir));
    // The layer over the locked base is a layer of its own, and sees the base's locked dependency.
    expect(path.basename(built(path.join(dir, 'two'), 'more').dir)).not.toBe(
      path.basename(built(path.join(dir, 'one'), 'more').dir),
    );
    expect(ours(built(path.join(dir, 'two'), 'more').marker)).toEqual([
      'bg-lock-app==1.0',
      'bg-lock-dep==1.0',
      'bg-lock-extra==0.1',
    ]);

    // Without the lock, with pip: the newer dependency, under the key the uv build had.
    fs.renameSync(lockPath(spec), `${lockPath(spec)}.away`);
    const pip = await run('three', ['env', 'build', spec], { BENCHGRID_INSTALLER: 'pip' });
    expect(pip.code, pip.stderr).toBe(0);
    const three = built(path.join(dir, 'three'));
    expect(three.marker.installer).toBe('pip');
    expect(ours(three.marker)).toEqual(['bg-lock-app==1.0', 'bg-lock-dep==1.1']);
    expect(path.basename(three.dir)).toBe(path.basename(one.dir));
    // The uv build's venv, made without pip, got the interpreter's bundled pip and setuptools from uv:
    // the very ones `python -m venv` put into the pip build's.
    const seeded = (d: string, name: string) =>
      built(path.join(dir, d)).marker.resolved.find((p) => p.name === name)?.version;
    for (const name of ['pip', 'setuptools']) {
      expect(seeded('one', name)).toBeDefined();
      expect(seeded('one', name)).toBe(seeded('three', name));
    }
    const pipOf = async (d: string) => (await execa(path.join(d, 'bin/python'), ['-m', 'pip', '--version'])).stdout;
    expect((await pipOf(one.dir)).split(' ')[1]).toBe((await pipOf(three.dir)).split(' ')[1]);
    const app = 'import bg_lock_dep; print(bg_lock_dep.__version__)';
    expect((await execa(path.join(two.dir, 'bin/python'), ['-c', app])).stdout).toBe('1.0');
  }, 300_000);

  it('refuses a lock made for other requirements, or one whose names are not names, before building', async () => {
    const dir = tmpdir();
    fs.mkdirSync(path.join(dir, 'empty'));
    fs.mkdirSync(path.join(dir, 'wheels'));
    const spec = write(dir, 'lockbuild.yaml', SPEC);
    const lock = {
      benchgrid_lock: 1,
      spec: 'lockbuild',
      environments: { main: { python: '3.11.7', requirements: ['bg-lock-other'], resolved: [] } },
    };
    fs.writeFileSync(lockPath(spec), JSON.stringify(lock));
    const stale = await cli(['env', 'build', spec], { env: { BENCHGRID_CACHE: path.join(dir, 'cache') } });
    expect(stale.code).toBe(2);
    expect(stale.stderr).toContain(
      "environment 'main' was locked for the requirements bg-lock-other; the spec now declares bg-lock-app. Lock it again: `benchgrid env lock",
    );
    lock.environments.main = {
      ...lock.environments.main,
      requirements: ['bg-lock-app'],
      resolved: [{ name: '--index-url=http://elsewhere', version: '1' }] as never,
    };
    fs.writeFileSync(lockPath(spec), JSON.stringify(lock));
    const bad = await cli(['env', 'build', spec], { env: { BENCHGRID_CACHE: path.join(dir, 'cache') } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a package name and version');
    expect(
      fs.existsSync(path.join(dir, 'cache', 'envs'))
        ? fs.readdirSync(path.join(dir, 'cache', 'envs')).filter((n) => !n.endsWith('.lock'))
        : [],
    ).toEqual([]);
  }, 120_000);

  it("passes this machine's pip configuration on to uv, reads uv's progress and its failures", () => {
    const listed = [
      "global.extra-index-url='file:///opt/pypi/simple file:///opt/more/simple'",
      "global.find-links='/opt/wheels'",
      "global.constraint='/etc/pip/c.txt'",
      ":env:.find-links='/env/wheels'",
      ":env:.no-index='1'",
    ].join('\n');
    expect(configOptions(listed, { index_url: false, extra_index_urls: false, find_links: false })).toEqual([
      '--extra-index-url',
      'file:///opt/pypi/simple',
      '--extra-index-url',
      'file:///opt/more/simple',
      '--find-links',
      '/env/wheels',
      '--constraint',
      '/etc/pip/c.txt',
      '--no-index',
    ]);
    expect(configOptions(listed, { index_url: true, extra_index_urls: true, find_links: true })).toEqual([
      '--constraint',
      '/etc/pip/c.txt',
      '--no-index',
    ]);
    expect(uvPhase('Prepared 114 packages in 50.66s')).toBe('prepared 114 packages');
    expect(uvPhase(' + torch==2.14.1')).toBeNull();
    const out =
      '  × No solution found when resolving dependencies:\n  ╰─▶ Because there is no version of torch==0.0.0.1 and you require torch==0.0.0.1, we can conclude that your requirements are unsatisfiable.';
    expect(uvFailure(out)).toMatch(/^uv could not install 'torch==0\.0\.0\.1' \(Because there is no version/);
  });
});
