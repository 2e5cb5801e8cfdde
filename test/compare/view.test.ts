// `compare --only-changed`, `--sort` and the markdown made for a PR comment: marker, folding, units.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../src/results/write.ts';
import { stableStringify } from '../../src/util/json.ts';
import { MARKDOWN_MARKER } from '../../src/compare/view.ts';
import { cli, tmpdir } from '../helpers.ts';
import { cpuRun } from './fixtures.ts';

let base: string;
let mixed: string;

beforeAll(() => {
  const dir = tmpdir('benchgrid-compare-view-');
  base = path.join(dir, 'base.json');
  mixed = path.join(dir, 'mixed.json');
  fs.writeFileSync(base, stableStringify(toJson(cpuRun({ seed: 1 }))));
  // The same run with one cell three times slower and one twice as fast: two changes among eight cells.
  const after = cpuRun({ seed: 2 });
  const scaled = (id: string, k: number) => {
    const c = after.cells.find((x) => x.id === id)!;
    c.samples_ms = c.samples_ms!.map((p) => p.map((s) => s * k));
    c.per_process = c.per_process!.map((p) => ({
      ...p,
      median_ms: p.median_ms * k,
      min_ms: p.min_ms * k,
      max_ms: p.max_ms * k,
      iqr_ms: p.iqr_ms * k,
    }));
    for (const key of ['median_ms', 'min_ms', 'max_ms'] as const) c[key] = c[key]! * k;
  };
  scaled('A/single_module_output/tl_record/resnet18', 3);
  scaled('A/single_module_output/hooks/resnet18', 0.5);
  fs.writeFileSync(mixed, stableStringify(toJson(after)));
});

describe('compare views', () => {
  it('--only-changed shows only the cells that changed, and says how many it left out', async () => {
    const r = await cli(['compare', base, mixed, '--only-changed', '--sort', 'id'], { env: { COLUMNS: '200' } });
    expect(r.code).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => l.startsWith('│ A/'));
    expect(rows.map((l) => l.split('│')[1].trim())).toEqual([
      'A/single_module_output/hooks/resnet18',
      'A/single_module_output/tl_record/resnet18',
    ]);
    expect(r.stdout).toContain('Showing the 2 cells that changed (--only-changed); 6 without a change are left out.');
  });

  it('--only-changed with nothing changed says so in one line, and the JSON keeps its shape', async () => {
    const [table, json, whole] = await Promise.all([
      cli(['compare', base, base, '--only-changed'], { env: { COLUMNS: '100' } }),
      cli(['compare', base, base, '--only-changed', '--format', 'json']),
      cli(['compare', base, base, '--format', 'json']),
    ]);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('No cell changed beyond noise (--only-changed): 8 cells compared.');
    expect(table.stdout).not.toMatch(/[┌│└]/);
    // JSON is the full comparison whatever the view: the same keys and every cell.
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(Object.keys(JSON.parse(whole.stdout)));
    expect(JSON.parse(json.stdout).cells).toHaveLength(8);
  });

  it('--sort change puts the largest slowdown first', async () => {
    const r = await cli(['compare', base, mixed, '--sort', 'change'], { env: { COLUMNS: '200' } });
    const rows = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('│ A/'))
      .map((l) => l.split('│')[1].trim());
    expect(rows[0]).toBe('A/single_module_output/tl_record/resnet18');
    expect(rows.indexOf('A/single_module_output/hooks/resnet18')).toBe(5); // the 6 cells with a ratio, fastest last
  });

  it('markdown starts with a stable marker, keeps slower/faster open and folds the rest, in the report units', async () => {
    const r = await cli(['compare', base, mixed, '--format', 'markdown']);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(MARKDOWN_MARKER);
    const details = lines.findIndex((l) => l.startsWith('<details><summary>6 cells without a speed change'));
    expect(details).toBeGreaterThan(0);
    const open = lines.slice(0, details).filter((l) => l.startsWith('| `A/'));
    expect(open.map((l) => l.split(' | ')[0])).toEqual([
      '| `A/single_module_output/hooks/resnet18`',
      '| `A/single_module_output/tl_record/resnet18`',
    ]);
    // 450 ms reads as the report prints it: two decimals, ms below one second.
    expect(open[1]).toMatch(/\| 1\d\d\.\d\d ms \| 4\d\d\.\d\d ms \|/);
    expect(lines.slice(details).some((l) => l === '</details>')).toBe(true);
  });
});
