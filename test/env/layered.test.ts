// Environments of releases: built as layers over their base with real pip (offline, from local wheels), listed
// with their disk cost, and pruned (dry run by default).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { choosePrune } from '../../src/env/prune.ts';
import { baseConstraints } from '../../src/env/layered.ts';
import { DiskUsage, formatBytes } from '../../src/executors/local/disk.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';
import { layer2Spec } from './fixtures.ts';

const SPEC = (versions: string) =>
  layer2Spec({
    name: 'layers',
    title: 'layers',
    environments: '  main: { requirements: [demo-tool==1.0] }',
    tools: { demo: `{ label: "demo {version}", adapter: hooks, package: demo-tool, versions: [${versions}] }` },
  });

describe('layered environments', () => {
  it('builds one release as a small layer that sees the base and shadows its copy of the tool', async () => {
    const dir = tmpdir();
    const wheels = path.join(dir, 'wheels');
    fs.mkdirSync(wheels);
    for (const v of ['1.0', '2.0'])
      await execa('python3', [path.join(FIXTURES, 'wheels/make_wheel.py'), wheels, 'demo-tool', v]);
    const spec = write(dir, 'layers.yaml', SPEC('"1.0", "2.0"'));
    const env = { BENCHGRID_CACHE: path.join(dir, 'cache'), PIP_NO_INDEX: '1', PIP_FIND_LINKS: wheels };
    const built = await cli(['env', 'build', spec], { env, timeout: 300_000 });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(
      /building environment 'main\+demo-tool-2\.0' as a layer over 'main' \(demo-tool==2\.0\)/,
    );
    // 1.0 is what main pins: it runs in main, no layer.
    expect(built.stderr).not.toMatch(/main\+demo-tool-1\.0/);

    const listed = await cli(['env', 'list', '--json', spec], { env });
    const rows = JSON.parse(listed.stdout) as {
      id: string;
      built: boolean;
      builds: { python: string; disk_bytes: number; holds: string | null }[];
    }[];
    expect(rows.map((r) => [r.id, r.built, r.builds.length])).toEqual([
      ['main', true, 1],
      ['main+demo-tool-2.0', true, 1],
    ]);
    const [base, layer] = rows.map((r) => r.builds[0]);
    expect(layer.holds).toBe('demo-tool==2.0');
    const probe =
      "import demo_tool, importlib.metadata as m, sys; print(demo_tool.__version__, m.version('demo-tool'), sys.prefix)";
    expect((await execa(layer.python, ['-c', probe])).stdout).toMatch(/^2\.0 2\.0 .*main\+demo-tool-2\.0/);
    expect((await execa(base.python, ['-c', probe])).stdout).toMatch(/^1\.0 1\.0 /);
    // A layer has no pip and no copy of the base: far smaller than its base.
    expect(layer.disk_bytes).toBeLessThan(base.disk_bytes / 10);

    const text = await cli(['env', 'list', spec], { env });
    expect(text.stdout).toMatch(
      /main\+demo-tool-2\.0\tbuilt\t[\d.]+ KiB\t.*; a layer over 'main' adding demo-tool==2\.0\n  built with python .*: [\d.]+ KiB holding demo-tool==2\.0: /,
    );
    expect(text.stdout).toMatch(
      /^disk: .* in all \(hard-linked files counted once\); 1 layer\(s\): [\d.]+ KiB beyond their base environments$/m,
    );

    // Prune against a spec that no longer measures 2.0: a dry run lists the layer, --yes removes it.
    const fewer = write(dir, 'fewer.yaml', SPEC('"1.0"'));
    const dry = await cli(['env', 'prune', fewer], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/would remove .*main\+demo-tool-2\.0-\w+ \([\d.]+ KiB\): not used by the given specs/);
    expect(dry.stdout).toMatch(/1 environment\(s\), .* would be freed; run again with --yes/);
    expect(fs.existsSync(path.dirname(path.dirname(layer.python)))).toBe(true);
    const real = await cli(['env', 'prune', fewer, '--yes'], { env });
    expect(real.stdout).toMatch(/removing .*main\+demo-tool-2\.0/);
    expect(fs.existsSync(path.dirname(path.dirname(layer.python)))).toBe(false);
    expect(fs.existsSync(path.dirname(path.dirname(base.python)))).toBe(true);
  }, 300_000);

  it("builds environments declared `over` another as layers: a peer's own pins shadow the base's, the rest is the base's", async () => {
    const dir = tmpdir();
    const wheels = path.join(dir, 'wheels');
    fs.mkdirSync(wheels);
    for (const [name, v] of [
      ['demo-tool', '1.0'],
      ['demo-tool', '2.0'],
      ['demo-peer', '0.1'],
    ])
      await execa('python3', [path.join(FIXTURES, 'wheels/make_wheel.py'), wheels, name, v]);
    const spec = write(
      dir,
      'over.yaml',
      SPEC('"1.0"').replace(
        /environments:\n  main: \{ requirements: \[demo-tool==1\.0\] \}\n/,
        `environments:
  main: { requirements: [demo-tool==1.0] }
  peers: { over: main, default: true, requirements: [demo-peer==0.1] }
  old: { over: peers, requirements: [demo-tool==2.0] }
`,
      ),
    );
    const env = { BENCHGRID_CACHE: path.join(dir, 'cache'), PIP_NO_INDEX: '1', PIP_FIND_LINKS: wheels };
    const built = await cli(['env', 'build', spec], { env, timeout: 300_000 });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/building environment 'peers' as a layer over 'main' \(demo-peer==0\.1\)/);
    expect(built.stderr).toMatch(/building environment 'old' as a layer over 'peers' \(demo-tool==2\.0\)/);
    const rows = JSON.parse((await cli(['env', 'list', '--json', spec], { env })).stdout) as {
      id: string;
      requirements: string[];
      layer: { base: string } | null;
      builds: { python: string; holds: string | null }[];
    }[];
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    // The cache key and the held pins read the whole chain: the base's requirements with each layer's laid over them.
    expect(byId.old.requirements).toEqual(['demo-tool==2.0', 'demo-peer==0.1']);
    expect([byId.peers.layer?.base, byId.old.layer?.base, byId.main.layer]).toEqual(['main', 'peers', null]);
    expect([byId.peers.builds[0].holds, byId.old.builds[0].holds]).toEqual(['demo-peer==0.1', 'demo-tool==2.0']);
    const probe = 'import demo_tool, demo_peer; print(demo_tool.__version__, demo_peer.__version__)';
    expect((await execa(byId.old.builds[0].python, ['-c', probe])).stdout).toBe('2.0 0.1');
    expect((await execa(byId.peers.builds[0].python, ['-c', probe])).stdout).toBe('1.0 0.1');
  }, 300_000);

  it('chooses what to prune: unused, too old, or both; never a base a kept layer stands on', () => {
    const now = Date.UTC(2026, 10, 30);
    const day = 86_400_000;
    const cached = [
      { dir: 'a', usedAt: now - 40 * day },
      { dir: 'b', usedAt: now - 2 * day },
      { dir: 'c', usedAt: now - 90 * day },
    ];
    expect(
      choosePrune(cached, { used: new Set(['a']), olderThanDays: null, now, keep: new Set() }).map((c) => c.dir),
    ).toEqual(['b', 'c']);
    expect(choosePrune(cached, { used: null, olderThanDays: 30, now, keep: new Set() }).map((c) => c.dir)).toEqual([
      'a',
      'c',
    ]);
    expect(choosePrune(cached, { used: new Set(['a']), olderThanDays: 30, now, keep: new Set(['c']) })).toEqual([]);
    expect(choosePrune(cached, { used: new Set(['b']), olderThanDays: 30, now, keep: new Set() })).toEqual([
      { dir: 'a', why: 'not used by the given specs, last used or built 40 days ago' },
      { dir: 'c', why: 'not used by the given specs, last used or built 90 days ago' },
    ]);
  });

  it('holds what the base pins, except the release itself; counts hard links once', () => {
    expect(baseConstraints(['torch==2.14.1', 'captum==0.9.0', 'numpy'], ['captum==0.8.0'])).toEqual([
      'torch==2.14.1',
      'numpy',
    ]);
    const dir = tmpdir();
    write(dir, 'a/big', Buffer.alloc(64 * 1024, 1));
    fs.mkdirSync(path.join(dir, 'b'));
    fs.linkSync(path.join(dir, 'a/big'), path.join(dir, 'b/big'));
    const du = new DiskUsage();
    const a = du.measure(path.join(dir, 'a'));
    expect(a).toBeGreaterThanOrEqual(64 * 1024);
    expect(du.measure(path.join(dir, 'b'))).toBeLessThan(8 * 1024);
    expect(formatBytes(6.2 * 1024 ** 3)).toBe('6.2 GiB');
  });
});
