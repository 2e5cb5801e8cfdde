// A real build from the package indexes a spec names, with no network and nothing from the real index:
// `index_url` is an empty directory and the wheels are made here, under names no index has.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { checkIndex } from '../../src/env/index-check.ts';
import { downloadSize } from '../../src/env/size.ts';
import { loadDeclaredSpec } from '../../src/spec/load.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';
import { layer2Spec } from './fixtures.ts';

const SPEC = layer2Spec({
  name: 'indexbuild',
  title: 'index build',
  environments: `  main: { index_url: empty, find_links: [wheels], requirements: [bg-index-probe==1.0] }
  more: { over: main, index_url: empty, find_links: [more-wheels], requirements: [bg-index-extra==0.1] }`,
  tools: { probe: '{ label: "probe {version}", adapter: hooks, package: bg-index-probe, versions: ["1.0", "2.0"] }' },
});

async function wheel(dir: string, name: string, version: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await execa('python3', [path.join(FIXTURES, 'wheels/make_wheel.py'), dir, name, version]);
}

/** A directory with an empty index, the probe's wheels 1.0 and 2.0, and the spec; returns the spec's path. */
async function project(dir: string): Promise<string> {
  fs.mkdirSync(path.join(dir, 'empty'));
  await wheel(path.join(dir, 'wheels'), 'bg-index-probe', '1.0');
  await wheel(path.join(dir, 'wheels'), 'bg-index-probe', '2.0');
  await wheel(path.join(dir, 'more-wheels'), 'bg-index-extra', '0.1');
  return write(dir, 'indexbuild.yaml', SPEC);
}

describe('an environment built from the package indexes its spec names', () => {
  it("installs from its find_links, a layer from its own, a release from its tool environment's", async () => {
    const dir = tmpdir();
    const spec = await project(dir);
    // pip's log says where it looked (uv's builds from a wheel directory: test/env/uv-lock.test.ts).
    const env = { BENCHGRID_CACHE: path.join(dir, 'cache'), BENCHGRID_INSTALLER: 'pip' };
    const built = await cli(['env', 'build', spec], { env, timeout: 300_000 });
    expect(built.code, built.stderr).toBe(0);

    const rows = JSON.parse((await cli(['env', 'list', '--json', spec], { env })).stdout) as {
      id: string;
      builds: { python: string }[];
    }[];
    const python = Object.fromEntries(rows.map((r) => [r.id, r.builds[0]?.python]));
    expect(Object.keys(python).sort()).toEqual(['main', 'main+bg-index-probe-2.0', 'more']);
    const probe = 'import bg_index_probe; print(bg_index_probe.__version__)';
    expect((await execa(python.main, ['-c', probe])).stdout).toBe('1.0');
    expect((await execa(python['main+bg-index-probe-2.0'], ['-c', probe])).stdout).toBe('2.0');
    expect(
      (await execa(python.more, ['-c', `${probe}; import bg_index_extra; print(bg_index_extra.__version__)`])).stdout,
    ).toBe('1.0\n0.1');

    // pip was told where to look (its log says so; this machine's pip configuration may add its own), and the marker records it.
    const log = (id: string) => fs.readFileSync(`${path.dirname(path.dirname(python[id]))}.build.log`, 'utf8');
    const looked = (id: string, what: 'indexes' | 'links') =>
      log(id)
        .match(new RegExp(`^Looking in ${what}: (.*)$`, 'm'))?.[1]
        .split(', ') ?? [];
    const own = [path.join(dir, 'empty'), path.join(dir, 'wheels')];
    for (const id of ['main', 'main+bg-index-probe-2.0', 'more']) {
      expect(looked(id, 'indexes')[0], id).toBe(own[0]);
      expect(looked(id, 'indexes'), id).not.toContain('https://pypi.org/simple');
    }
    expect(looked('main', 'links')).toContain(own[1]);
    expect(looked('main+bg-index-probe-2.0', 'links')).toContain(own[1]);
    expect(looked('more', 'links')).toContain(path.join(dir, 'more-wheels'));
    expect(looked('more', 'links')).not.toContain(own[1]);
    const marker = JSON.parse(
      fs.readFileSync(path.join(path.dirname(path.dirname(python.main)), 'benchgrid-env.json'), 'utf8'),
    );
    expect(marker.index).toEqual({ index_url: own[0], extra_index_urls: [], find_links: [own[1]] });
  }, 300_000);

  it('is what plan --sizes and validate --check-index ask pip about', async () => {
    const dir = tmpdir();
    const spec = await loadDeclaredSpec(await project(dir));
    const cache = process.env.BENCHGRID_CACHE;
    process.env.BENCHGRID_CACHE = path.join(dir, 'cache');
    try {
      const size = await downloadSize(spec.environments.main, dir);
      expect(size).toEqual({
        bytes: fs.statSync(path.join(dir, 'wheels/bg_index_probe-1.0-py3-none-any.whl')).size,
        files: 1,
        unknown: 0,
        error: null,
      });
    } finally {
      if (cache === undefined) delete process.env.BENCHGRID_CACHE;
      else process.env.BENCHGRID_CACHE = cache;
    }
    // Both releases are in the spec's wheel directory; a third, asked of the same index, is not.
    expect(await checkIndex(spec)).toEqual([]);
    spec.tools.probe.versions = ['1.0', '3.0'];
    spec.tools['probe@3.0'] = { ...spec.tools['probe@2.0'], id: 'probe@3.0', version: '3.0' };
    const [missing] = await checkIndex(spec);
    expect(missing.message).toBe('bg-index-probe 3.0 is not on the package index; it has 2.0, 1.0.');
  }, 300_000);

  it('refuses to build from a local directory that is gone, before pip starts', async () => {
    const dir = tmpdir();
    const spec = await project(dir);
    fs.rmSync(path.join(dir, 'wheels'), { recursive: true });
    const r = await cli(['env', 'build', spec], {
      env: { BENCHGRID_CACHE: path.join(dir, 'cache') },
      timeout: 120_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `environment 'main': its find_links names the directory ${path.join(dir, 'wheels')}, which does not exist or is not a directory.`,
    );
    expect(fs.readdirSync(path.join(dir, 'cache', 'envs')).filter((n) => !n.endsWith('.lock'))).toEqual([]);
  }, 120_000);
});
