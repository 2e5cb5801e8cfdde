// The options run, bench-change and export share are registered once (src/cli-options.ts): the same flag
// takes the same values everywhere, and --warmups (hyperfine's name) overrides the spec's warm-ups like
// --samples overrides its samples. Hostile values exit 2 with a message and write nothing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, testPython, tmpdir } from '../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
const RAW = 'A/single_module_output/raw/*';

describe('the timing overrides', () => {
  it('are offered alike by run, bench-change and export', async () => {
    for (const command of ['run', 'bench-change', 'export']) {
      const help = (await cli([command, '--help'])).stdout;
      for (const flag of ['--processes <n>', '--samples <n>', '--warmups <n>']) expect(help, `${command} ${flag}`).toContain(flag);
    }
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
    expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(/--warmups must be a non-negative integer \(got '-5'\)/)]);
    const change = await cli(['bench-change', TINY, '--tool', 'hooks', '--base', 'pinned', '--out', out, '--warmups', 'many']);
    expect([change.code, change.stderr]).toEqual([2, expect.stringMatching(/--warmups must be a non-negative integer \(got 'many'\)/)]);
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('--warmups 0', () => {
  it("goes into every request of an export and its manifest's overrides; without it, the spec's warm-ups and no override", async () => {
    const dir = tmpdir();
    const read = (bundle: string) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(bundle, 'bundle.json'), 'utf8'));
      const warmups = manifest.jobs.map((j: { request: string }) => JSON.parse(fs.readFileSync(path.join(bundle, j.request), 'utf8')).settings.warmups);
      return { overrides: manifest.overrides, warmups: [...new Set(warmups)] };
    };
    expect((await cli(['export', TINY, '--out', path.join(dir, 'zero'), '--only', RAW, '--warmups', '0'])).code).toBe(0);
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
    const r = await cli(['run', TINY, '--only', RAW, '--processes', '1', '--samples', '2', '--warmups', '0', '--no-probe', '--python', python, '--out', out], { timeout: 400_000 });
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    expect(results.run.overrides).toEqual({ processes: 1, samples: 2, warmups: 0 });
    const cellDir = path.join(out, 'processes', 'A+single_module_output+raw+resnet18');
    const result = JSON.parse(fs.readFileSync(path.join(cellDir, 'time-0.result.json'), 'utf8'));
    expect(result.status).toBe('ok');
    expect(result.timing.warmups).toBe(0);
    // The journal's header (schemas/journal.schema.json) holds the override; resuming reads it back.
    const resumed = await cli(['run', '--resume', out, '--python', python], { timeout: 400_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8')).run.overrides).toEqual({ processes: 1, samples: 2, warmups: 0 });
  }, 600_000);
});
