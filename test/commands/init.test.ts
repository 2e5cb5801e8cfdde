// `benchgrid init` writes starter specs that validate, and one of their cells runs for real.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { cli, testPython, tmpdir } from '../helpers.ts';

describe('benchgrid init', () => {
  it('writes a torchvision and a Hugging Face starter spec that both validate', async () => {
    const dir = tmpdir();
    for (const model of ['torchvision:resnet18', 'hf:gpt2']) {
      const w = await cli(['init', '--model', model], { cwd: dir });
      expect(w.code, w.stderr).toBe(0);
    }
    const files = fs.readdirSync(path.join(dir, 'specs')).sort();
    expect(files).toEqual(['gpt2_starter.yaml', 'resnet18_starter.yaml']);
    const v = await cli(['validate', ...files.map((f) => path.join(dir, 'specs', f))]);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(/resnet18_starter\.yaml: valid: 6 cells \(6 planned/);
    expect(v.stdout).toMatch(/gpt2_starter\.yaml: valid: 6 cells \(6 planned/);
  });

  it('never overwrites a file without --force, and refuses an unknown model or a missing site as bad input', async () => {
    const dir = tmpdir();
    expect((await cli(['init', 'a.yaml'], { cwd: dir })).code).toBe(0);
    const again = await cli(['init', 'a.yaml'], { cwd: dir });
    expect([again.code, again.stderr]).toEqual([2, expect.stringContaining('exists; choose another file, or pass --force')]);
    expect((await cli(['init', 'a.yaml', '--force'], { cwd: dir })).code).toBe(0);
    const bad = await cli(['init', 'b.yaml', '--model', 'keras:resnet'], { cwd: dir });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--model: expected torchvision:<name>')]);
    const noSite = await cli(['init', 'c.yaml', '--model', 'torchvision:vgg11'], { cwd: dir });
    expect([noSite.code, noSite.stderr]).toEqual([2, expect.stringContaining('--site: give the module')]);
  });

  it('runs one cell of the starter spec and ends with the summary', async () => {
    const dir = tmpdir();
    expect((await cli(['init', 'starter.yaml'], { cwd: dir })).code).toBe(0);
    const out = path.join(dir, 'run');
    const r = await cli(['run', 'starter.yaml', '--only', 'A/single_module_output/nnsight/*', '--processes', '1', '--samples', '2', '--python', await testPython(), '--out', out], { cwd: dir, timeout: 600_000 });
    expect(r.code, r.stderr.slice(-2000)).toBe(0);
    const cell = loadResults(out).cells.find((c) => c.id === 'A/single_module_output/nnsight/resnet18')!;
    expect([cell.status, cell.exact]).toEqual(['ok', 'bit']);
    expect(r.stderr).toMatch(/nnsight +\d+\.\d\d m?s .* bit\n/);
    expect(r.stderr).toContain('Open the report: run/report.html');
  }, 600_000);
});
