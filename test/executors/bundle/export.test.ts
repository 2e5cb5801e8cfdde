// Exporting a bundle: shards keep a cell's processes together, the manifest describes every process,
// and the bundle is self-contained (test/wire.test.ts checks the driver's environment allow-list).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planBundle, shardJobs } from '../../../src/executors/bundle/export.ts';
import { parseShard } from '../../../src/executors/bundle/manifest.ts';
import { exportSelection } from '../../../src/executors/bundle/select.ts';
import { aaCells, buildJobs } from '../../../src/run/jobs.ts';
import { cli, FIXTURES, ROOT, tmpdir } from '../../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');

describe('sharding', () => {
  it('puts every process of a cell, A/A processes included, into one shard, cells round-robin', async () => {
    const x = await exportSelection(TINY, { processes: 2 });
    const protocol = { ...x.protocol, aa_pairs: 1 };
    const jobs = buildJobs(x.plan, protocol, x.selected, aaCells(x.spec, x.plan, x.selected));
    const shards = shardJobs(jobs, 3);
    expect(shards.flat()).toHaveLength(jobs.length);
    const owner = new Map<string, number>();
    shards.forEach((s, i) =>
      s.forEach((j) => {
        expect(owner.get(j.cell.id) ?? i).toBe(i);
        owner.set(j.cell.id, i);
      }),
    );
    const cells = [...new Set(jobs.map((j) => j.cell.id))];
    cells.forEach((c, k) => expect(owner.get(c)).toBe(k % 3));
    expect(jobs.some((j) => j.kind === 'aa')).toBe(true);
  });

  it('parses --shard I/N as 1-based and refuses nonsense', () => {
    expect(parseShard('2/3')).toEqual({ index: 1, count: 3 });
    expect(() => parseShard('0/3')).toThrow(/1 <= I <= N/);
    expect(() => parseShard('4/3')).toThrow(/got '4\/3'/);
    expect(() => parseShard('two')).toThrow(/--shard expects I\/N/);
  });
});

describe('the schedule of an export', () => {
  it("is the spec's protocol.schedule unless --schedule says otherwise", async () => {
    const dir = tmpdir();
    const spec = path.join(dir, 'tiny-sequential.yaml');
    fs.writeFileSync(
      spec,
      fs.readFileSync(TINY, 'utf8').replace(/^protocol: \{/m, 'protocol: { schedule: sequential, '),
    );
    expect((await exportSelection(spec, {})).schedule.kind).toBe('sequential');
    expect((await exportSelection(spec, { schedule: 'interleaved' })).schedule.kind).toBe('interleaved');
    expect((await exportSelection(TINY, {})).schedule.kind).toBe('interleaved');
  });
});

describe('the planned manifest', () => {
  it('lists each process with its request, result, logs, time limit, threads and PYTHONPATH', async () => {
    const x = await exportSelection(TINY, { only: 'A/single_module_output/*/*', processes: 1, schedule: 'sequential' });
    const { manifest, requests } = planBundle({ ...x, shard: { index: 0, count: 1 } });
    expect(manifest).toMatchObject({
      format: 1,
      protocol: 1,
      device: 'cpu',
      only: 'A/single_module_output/*/*',
      overrides: { processes: 1 },
      shard: { index: 0, count: 1 },
      runners: ['torch'],
    });
    expect(manifest.spec).toMatchObject({ name: 'tiny', digest: x.spec.digest });
    // The raw cell is timed by the paired processes of hooks and tv_fx (docs/protocol.md, Pairing); it runs
    // its row's control, one process per timing process of a cell (docs/protocol.md, The control).
    expect(manifest.jobs.map((j) => j.key)).toEqual([
      'A/single_module_output/raw/resnet18#control#0',
      'A/single_module_output/hooks/resnet18#time#0',
      'A/single_module_output/tv_fx/resnet18#time#0',
    ]);
    const tvFx = manifest.jobs[2];
    expect(tvFx).toMatchObject({
      request: 'requests/A+single_module_output+tv_fx+resnet18/time-0.json',
      result: 'results/A+single_module_output+tv_fx+resnet18/time-0.json',
      stderr: 'logs/A+single_module_output+tv_fx+resnet18/time-0.stderr.log',
      timeout_s: 120,
      threads: 1,
      pythonpath: ['harness', 'runners/torch'],
      environment: 'default',
    });
    // the same request `run` writes: the versioned protocol, nothing bundle-specific
    const req = requests.get(tvFx.request)!;
    expect(req).toMatchObject({
      protocol: 1,
      spec: { name: 'tiny', digest: x.spec.digest },
      mode: 'time',
      process_index: 0,
      device: 'cpu',
      reference: { tool: 'hooks' },
    });
    // It pairs exactly as a local process: same baseline, and a seed from the export's recorded schedule seed.
    expect(req.pairing).toMatchObject({
      baseline: { tool: 'raw', module: 'benchgrid_torch.adapters.raw' },
      seed: expect.any(Number),
    });
    expect(planBundle({ ...x, shard: { index: 0, count: 1 } }).requests.get(tvFx.request)!.pairing).toEqual(
      req.pairing,
    );
    expect(manifest.environments).toEqual({
      default: { python: 'python3', requirements: [], file: 'requirements-default.txt' },
    });
  });
});

describe('benchgrid export', () => {
  it('writes a self-contained bundle: manifest, requests, harness, runners, requirements, spec data and driver', async () => {
    const out = path.join(tmpdir(), 'bundle');
    const r = await cli([
      'export',
      TINY,
      '--out',
      out,
      '--only',
      'A/single_module_output/*/*,B/**',
      '--shard',
      '2/2',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ spec: 'tiny', shard: { index: 1, count: 2 } });
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'bundle.json'), 'utf8'));
    for (const j of manifest.jobs) expect(fs.existsSync(path.join(out, j.request))).toBe(true);
    for (const f of [
      'driver.py',
      'spec.json',
      'README.txt',
      'requirements-default.txt',
      'harness/benchgrid_harness/__main__.py',
      'harness/benchgrid_harness/wire.json',
      'runners/torch/manifest.json',
    ]) {
      expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    }
    const all = fs.readdirSync(out, { recursive: true }).map(String);
    expect(all.filter((f) => f.includes('__pycache__') || f.endsWith('.pyc'))).toEqual([]);
    expect(fs.existsSync(path.join(out, 'harness/selfcheck.py'))).toBe(false);
    // The harness's unit tests (runners/harness/tests) stay in the repository.
    expect(fs.existsSync(path.join(ROOT, 'runners/harness/tests/run.py'))).toBe(true);
    expect(all.filter((f) => /(^|[\\/])tests([\\/]|$)|test_[^/\\]*\.py$/.test(f))).toEqual([]);
  });

  it('refuses a directory that already holds something, and a shard with no cell', async () => {
    const out = tmpdir();
    fs.writeFileSync(path.join(out, 'x'), '');
    const busy = await cli(['export', TINY, '--out', out]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/is not empty; export into a new directory/);
    const empty = await cli([
      'export',
      TINY,
      '--out',
      path.join(tmpdir(), 'b'),
      '--only',
      'B/raw_forward/*/*',
      '--shard',
      '2/2',
    ]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/shard 2\/2 has no cell \(1 cell\(s\) to share out\); use fewer shards/);
  });
});
