// The options run, bench-change and export share are registered once (src/cli-options.ts): the same flag
// takes the same values everywhere, and --warmups (hyperfine's name) overrides the spec's warm-ups like
// --samples overrides its samples. Hostile values exit 2 with a message and write nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, ROOT, testPython, tmpdir } from '../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
const RAW = 'A/single_module_output/raw/*';

describe('the timing overrides', () => {
  it('are offered alike by run, bench-change, export and plan', async () => {
    for (const command of ['run', 'bench-change', 'export', 'plan']) {
      const help = (await cli([command, '--help'])).stdout;
      for (const flag of ['--processes <n>', '--samples <n>', '--warmups <n>', '--memory-runs <n>', '--aa-pairs <n>'])
        expect(help, `${command} ${flag}`).toContain(flag);
    }
  }, 60_000);
});

describe('--memory-runs and --aa-pairs', () => {
  const RESNET = path.join(ROOT, 'specs/resnet18_cpu.yaml');
  const processes = async (...flags: string[]) => {
    const r = await cli(['plan', RESNET, '--no-sizes', '--json', ...flags]);
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout).cost.processes;
  };

  it("let plan count the processes of a quick look: no memory process and no A/A pair, the spec's timing processes", async () => {
    const spec = await processes();
    expect(spec.memory).toBeGreaterThan(0);
    expect(spec.aa).toBeGreaterThan(0);
    const quick = await processes('--memory-runs', '0', '--aa-pairs', '0');
    expect(quick).toMatchObject({ time: spec.time, memory: 0, aa: 0, total: spec.time + spec.control });
    // --controls 0: no control process either, the spec's timing processes alone.
    expect(await processes('--memory-runs', '0', '--aa-pairs', '0', '--controls', '0')).toMatchObject({
      time: spec.time,
      control: 0,
      total: spec.time,
    });
    // One A/A pair is two processes; two memory processes per cell double the spec's one.
    expect(await processes('--aa-pairs', '1', '--memory-runs', '2')).toMatchObject({ aa: 2, memory: 2 * spec.memory });
  }, 60_000);

  it("are bounded like the spec's keys (--controls to 1000, --precision a percentage or off) and refused before anything is written", async () => {
    const out = path.join(tmpdir(), 'never');
    const r = await cli(['export', TINY, '--out', out, '--aa-pairs', '101']);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/--aa-pairs may be at most 100 \(got '101'\)/)]);
    const m = await cli(['run', TINY, '--out', out, '--memory-runs', '-1']);
    expect([m.code, m.stderr]).toEqual([
      2,
      expect.stringMatching(/--memory-runs must be a non-negative integer \(got '-1'\)/),
    ]);
    const c = await cli(['run', TINY, '--out', out, '--controls', '1001']);
    expect([c.code, c.stderr]).toEqual([2, expect.stringMatching(/--controls may be at most 1000 \(got '1001'\)/)]);
    for (const bad of ['0', '100', '-2', 'two', '', 'NaN', '1e400']) {
      const p = await cli(['run', TINY, '--out', out, '--precision', bad]);
      expect([p.code, p.stderr], bad).toEqual([
        2,
        expect.stringMatching(/--precision must be a percentage above 0 and below 100, such as 2 or 0\.5, or 'off'/),
      ]);
    }
    expect(fs.existsSync(out)).toBe(false);
  }, 60_000);

  it("go into an export's jobs and its manifest's overrides under the protocol's own keys", async () => {
    const bundle = path.join(tmpdir(), 'bundle');
    const spec = path.join(FIXTURES, 'specs/compare-real.yaml');
    expect((await cli(['export', spec, '--out', bundle, '--aa-pairs', '0', '--memory-runs', '1'])).code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(bundle, 'bundle.json'), 'utf8'));
    expect(manifest.overrides).toEqual({ aa_pairs: 0, memory_runs: 1 });
    const kinds = new Set(
      manifest.jobs.map(
        (j: { request: string }) => JSON.parse(fs.readFileSync(path.join(bundle, j.request), 'utf8')).mode,
      ),
    );
    expect(kinds).toEqual(new Set(['time', 'memory']));
  }, 60_000);
});

describe('--warmups with a hostile value', () => {
  it.each([
    ['-1', /--warmups must be a non-negative integer \(got '-1'\)/],
    ['three', /--warmups must be a non-negative integer \(got 'three'\)/],
    ['', /--warmups must be a non-negative integer \(got ''\)/],
    ['2.5', /--warmups must be a non-negative integer \(got '2.5'\)/],
    ['10001', /--warmups may be at most 10000 \(got '10001'\)/],
    ['1e12', /--warmups may be at most 10000/],
  ])("export --warmups '%s' exits 2, says why, and writes nothing", async (value, message) => {
    const out = path.join(tmpdir(), 'never');
    const r = await cli(['export', TINY, '--out', out, `--warmups=${value}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('is refused by run and bench-change the same way, before anything starts', async () => {
    const out = path.join(tmpdir(), 'never');
    const run = await cli(['run', TINY, '--out', out, '--warmups', '-5']);
    expect([run.code, run.stderr]).toEqual([
      2,
      expect.stringMatching(/--warmups must be a non-negative integer \(got '-5'\)/),
    ]);
    const change = await cli([
      'bench-change',
      TINY,
      '--tool',
      'hooks',
      '--base',
      'pinned',
      '--out',
      out,
      '--warmups',
      'many',
    ]);
    expect([change.code, change.stderr]).toEqual([
      2,
      expect.stringMatching(/--warmups must be a non-negative integer \(got 'many'\)/),
    ]);
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('--warmups 0', () => {
  it("goes into every request of an export and its manifest's overrides; without it, the spec's warm-ups and no override", async () => {
    const dir = tmpdir();
    const read = (bundle: string) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(bundle, 'bundle.json'), 'utf8'));
      const warmups = manifest.jobs.map(
        (j: { request: string }) => JSON.parse(fs.readFileSync(path.join(bundle, j.request), 'utf8')).settings.warmups,
      );
      return { overrides: manifest.overrides, warmups: [...new Set(warmups)] };
    };
    expect((await cli(['export', TINY, '--out', path.join(dir, 'zero'), '--only', RAW, '--warmups', '0'])).code).toBe(
      0,
    );
    expect(read(path.join(dir, 'zero'))).toEqual({ overrides: { warmups: 0 }, warmups: [0] });
    expect((await cli(['export', TINY, '--out', path.join(dir, 'spec'), '--only', RAW])).code).toBe(0);
    const spec = read(path.join(dir, 'spec'));
    expect(spec.overrides).toEqual({});
    expect(spec.warmups).toHaveLength(1);
    expect(spec.warmups[0]).toBeGreaterThan(0);
  }, 60_000);

  it('runs the cell with no warm-up call, records the override, and a --resume keeps it', async () => {
    const out = path.join(tmpdir(), 'run');
    const python = await testPython();
    const r = await cli(
      [
        'run',
        TINY,
        '--only',
        RAW,
        '--processes',
        '1',
        '--samples',
        '2',
        '--warmups',
        '0',
        '--aa-pairs',
        '0',
        '--no-probe',
        '--python',
        python,
        '--out',
        out,
      ],
      { timeout: 400_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    expect(results.run.overrides).toEqual({ processes: 1, samples: 2, warmups: 0, aa_pairs: 0 });
    const cellDir = path.join(out, 'processes', 'A+single_module_output+raw+resnet18');
    const result = JSON.parse(fs.readFileSync(path.join(cellDir, 'time-0.result.json'), 'utf8'));
    expect(result.status).toBe('ok');
    expect(result.timing.warmups).toBe(0);
    // The journal's header (schemas/journal.schema.json) holds the override; resuming reads it back.
    const resumed = await cli(['run', '--resume', out, '--python', python], { timeout: 400_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).run.overrides).toEqual({
      processes: 1,
      samples: 2,
      warmups: 0,
      aa_pairs: 0,
    });
  }, 600_000);
});
