// The planner: stable order, statuses, `--only` globs, and the JSON shape of `benchgrid plan --json`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { onlyFilter } from '../../src/plan/only.ts';
import { cli, FIXTURES, ROOT } from '../helpers.ts';

const tinyFile = path.join(FIXTURES, 'specs/tiny.yaml');

describe('plan', () => {
  it('orders cells by group, subject, contract and tool as declared, the same every time', async () => {
    const a = (await loadSpec(tinyFile)).plan!.cells.map((c) => c.id);
    const b = (await loadSpec(tinyFile)).plan!.cells.map((c) => c.id);
    expect(a).toEqual(b);
    expect(a.slice(0, 4)).toEqual([
      'A/single_module_output/raw/resnet18',
      'A/single_module_output/hooks/resnet18',
      'A/single_module_output/tv_fx/resnet18',
      'A/matched_retained/raw/resnet18',
    ]);
    expect(a.at(-1)).toBe('B/hooks_all_modules/reference/resnet18');
  });

  it('marks reasoned cells unsupported with their reason and compares only with the reference', async () => {
    const cells = (await loadSpec(tinyFile)).plan!.cells;
    const edit = cells.find((c) => c.id === 'A/replacement_edit/tv_fx/resnet18')!;
    expect(edit).toMatchObject({ status: 'unsupported', reason: 'a feature extractor reads outputs' });
    expect(cells.find((c) => c.id === 'A/single_module_output/tv_fx/resnet18')!.reference).toBe('hooks');
    expect(cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')!.reference).toBeNull();
    expect(cells.find((c) => c.id === 'A/single_module_output/raw/resnet18')!.reference).toBeNull();
    expect(cells.find((c) => c.id === 'B/raw_forward/reference/resnet18')!.reference).toBeNull();
  });

  it('--only selects by glob, several globs separated by commas', () => {
    const ids = ['A/x/hooks/s', 'A/x/raw/s', 'B/y/reference/s'];
    expect(ids.filter(onlyFilter('A/*/hooks/*', ids))).toEqual(['A/x/hooks/s']);
    expect(ids.filter(onlyFilter('A/*/hooks/*,B/**', ids))).toEqual(['A/x/hooks/s', 'B/y/reference/s']);
    expect(() => onlyFilter('C/*', ids)).toThrow(/--only 'C\/\*' matches no cell/);
  });

  it('benchgrid plan --json prints the documented shape', async () => {
    const r = await cli(['plan', tinyFile, '--json', '--only', 'A/*/tv_fx/*']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.spec).toBe('tiny');
    expect(out.cells.map((c: any) => c.id)).toEqual(out.cells.map((c: any) => `A/${c.contract}/tv_fx/resnet18`));
    expect(Object.keys(out.cells[0]).sort()).toEqual([
      'contract',
      'environment',
      'group',
      'id',
      'reason',
      'runner',
      'status',
      'subject',
      'tool',
    ]);
  });

  it('benchgrid plan draws a grid per group and subject, with the reasons under it', async () => {
    const r = await cli(['plan', path.join(ROOT, 'specs/resnet18_gpu.yaml')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/A: peer matrix \/ ResNet-18: \d+ of 72 cells run/);
    expect(r.stdout).toMatch(/\(a\) a bound edit records nothing; it serves edit contracts only/);
    expect(r.stdout).toMatch(/83 cells: \d+ planned, \d+ unsupported\./);
  });

  it('--help works for the program and each command', async () => {
    for (const args of [['--help'], ['plan', '--help'], ['validate', '--help']]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/Usage: benchgrid/);
    }
  });
});
