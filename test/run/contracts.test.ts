// The reference tools on every contract, in real Python processes with real torch.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { cli, FIXTURES, testPython, tmpdir } from '../helpers.ts';
import { SIX_CONTRACTS } from '../helpers/six-contracts.ts';

let results: Results;
let out: string;
let stderr: string;
let stdout: string;

beforeAll(async () => {
  out = path.join(tmpdir(), 'run');
  const r = await cli(
    ['run', path.join(FIXTURES, 'specs/tiny.yaml'), '--out', out, '--python', await testPython(), '--processes', '1'],
    { timeout: 400_000 },
  );
  expect(r.code, r.stderr).toBe(0);
  stderr = r.stderr;
  stdout = r.stdout;
  results = loadResults(path.join(out, 'results.json'));
}, 420_000);

describe('raw, hooks and torchvision fx on the six contracts', () => {
  it('says in its header line how many of the cells are measured and how many are unsupported', () => {
    expect(stderr).toMatch(
      /benchgrid: tiny: 20 cells \(18 measured, 2 unsupported\), \d+ processes \(\d+ to run\) on cpu/,
    );
  });

  it('measures every implemented cell with raw samples', () => {
    for (const contract of SIX_CONTRACTS) {
      for (const tool of ['raw', 'hooks']) {
        const c = results.cells.find((x) => x.id === `A/${contract}/${tool}/resnet18`)!;
        expect(c.status, c.id + ' ' + c.reason).toBe('ok');
        expect(c.samples_ms![0].length).toBeGreaterThanOrEqual(2);
        expect(c.samples_ms![0].every((s) => s > 0)).toBe(true);
        expect(c.median_ms).toBeGreaterThan(0);
        expect(c.exact).toBeNull(); // raw has nothing to compare; hooks is the reference
      }
    }
  });

  it('torchvision fx matches the hooks reference bit for bit where it runs', () => {
    for (const contract of [
      'single_module_output',
      'matched_retained',
      'same_site_gradient',
      'ordered_dataset_features',
    ]) {
      const c = results.cells.find((x) => x.id === `A/${contract}/tv_fx/resnet18`)!;
      expect({ id: c.id, status: c.status, exact: c.exact }).toEqual({ id: c.id, status: 'ok', exact: 'bit' });
    }
    expect(results.cells.find((x) => x.id === 'A/replacement_edit/tv_fx/resnet18')).toMatchObject({
      status: 'unsupported',
      reason: 'a feature extractor reads outputs',
    });
  });

  it('runs the group B reference operations', () => {
    for (const id of ['B/raw_forward/reference/resnet18', 'B/hooks_all_modules/reference/resnet18']) {
      expect(results.cells.find((x) => x.id === id)?.status).toBe('ok');
    }
  });

  it('records the protocol with the override, versions and how each number was obtained', () => {
    const meta = results.subjects.resnet18.meta!;
    expect(meta.protocol).toMatchObject({ processes: 1, samples: 3, warmups: 1, fresh_subprocess: true });
    expect(results.run?.overrides).toEqual({ processes: 1 });
    expect(results.versions.torch).toMatch(/^2\./);
    expect(results.versions.torchvision).toMatch(/^0\./);
    const pp = results.cells.find((x) => x.id === 'A/single_module_output/hooks/resnet18')!.per_process![0];
    expect(pp.phases_s.timed).toBeGreaterThan(0);
    expect(pp.start).toBe('fork'); // the CPU default: forked from a clean parent
  });

  it('writes the journal, the markdown page and the HTML report next to results.json', () => {
    for (const f of ['journal.jsonl', 'results.json', 'report.md', 'report.html', 'spec.json'])
      expect(fs.existsSync(path.join(out, f)), f).toBe(true);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(
      /\| Tiny ResNet-18, CPU, one module's output, n=1 processes \| forward hook \| \d+\.\d\d ms \(/,
    );
  });

  it('keeps stdout empty and reports progress on stderr', () => {
    expect(stdout).toBe('');
    expect(stderr).toMatch(/\[\d+\/\d+ processes, \d+\/\d+ cells \| elapsed /);
    expect(stderr).toMatch(/20 cells: 18 ok, 0 error, 2 unsupported/);
  });
});
