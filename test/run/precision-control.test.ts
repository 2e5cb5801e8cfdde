// The precision control in real Python processes with real torch: on a bfloat16 subject, a tool that differs
// from the reference only by the precision it computes in is `degraded (precision)` once both run at float32; one
// that is wrong at every precision stays a mismatch; a float32 subject runs no control. Every report says so.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CellResult, Results } from '../../src/results/model.ts';
import { cli, FIXTURES, runSpec } from '../helpers.ts';
import { cellOf } from './cell-fixtures.ts';

const SPEC = path.join(FIXTURES, 'specs/precision-control.yaml');
let results: Results;
let out: string;

const cell = (tool: string, subject: string): CellResult =>
  cellOf(results, `A/single_module_output/${tool}/${subject}`);

beforeAll(async () => {
  ({ out, results } = await runSpec(SPEC, 300_000));
}, 320_000);

describe('on a bfloat16 subject', () => {
  it('a tool that computes in float32 differs beyond float32 rounding, and agrees bit for bit at float32: degraded', () => {
    const upcast = cell('upcast', 'resnet18@bf16');
    expect(upcast.exact).toBe('degraded');
    expect(upcast.max_abs_diff).toBeGreaterThan(1e-3);
    expect(upcast.precision_control).toEqual({
      from: 'bfloat16',
      verdict: 'bit',
      max_abs_diff: 0,
      rtol: 1e-5,
      atol: 1e-6,
    });
  });

  it('a tool wrong at every precision stays a mismatch, with the float32 difference beside it', () => {
    const offset = cell('offset', 'resnet18@bf16');
    expect(offset.exact).toBe('mismatch');
    expect(offset.precision_control?.verdict).toBe('mismatch');
    expect(offset.precision_control?.max_abs_diff).toBeCloseTo(1e-2, 5);
  });

  it('is asked for by the request, which carries the tolerance of a float32 subject', () => {
    const settings = (subject: string) =>
      JSON.parse(
        fs.readFileSync(
          path.join(out, 'processes', `A+single_module_output+upcast+${subject}`, 'time-0.request.json'),
          'utf8',
        ),
      ).settings;
    expect(settings('resnet18@bf16').float32_tolerance).toEqual({ rtol: 1e-5, atol: 1e-6 });
    expect(settings('resnet18@fp32').float32_tolerance).toBeUndefined();
  });

  it('times the control in its own phase, after the witness call', () => {
    const phases = cell('upcast', 'resnet18@bf16').per_process![0].phases_s;
    expect(phases.precision_control).toBeGreaterThan(0);
  });
});

describe('on a float32 subject', () => {
  it('no cell runs the control, whatever its verdict', () => {
    expect([cell('upcast', 'resnet18@fp32').exact, cell('offset', 'resnet18@fp32').exact]).toEqual(['bit', 'mismatch']);
    for (const tool of ['upcast', 'offset']) {
      expect(cell(tool, 'resnet18@fp32').precision_control ?? null).toBeNull();
      expect(cell(tool, 'resnet18@fp32').per_process![0].phases_s.precision_control).toBeUndefined();
    }
  });
});

describe('every report', () => {
  it('reads degraded (precision) with both differences, and a persisting mismatch with its float32 one', async () => {
    const file = path.join(out, 'results.json');
    const degraded = /degraded \(precision: max abs diff [\d.e-]+ in bfloat16; bit-exact at float32\)/;
    const md = await cli(['report', file, '--spec', SPEC, '--format', 'markdown']);
    expect(md.stdout).toMatch(degraded);
    expect(md.stdout).toMatch(/mismatch \(max abs diff [\d.e-]+; at float32 too: max abs diff 0\.01\)/);
    const table = await cli(['report', file, '--spec', SPEC, '--format', 'table']);
    expect(table.stdout).toMatch(/[\d.]+ ms ≈ \(\w\)/);
    expect(table.stdout.replace(/\s+/g, ' ')).toMatch(degraded);
    expect(table.stdout).toContain('≈ degraded (differs only by precision: agrees at float32)');
    const html = await cli(['report', file, '--spec', SPEC, '--format', 'html']);
    expect(html.stdout).toMatch(degraded);
    const json = JSON.parse((await cli(['report', file, '--format', 'json'])).stdout);
    const upcast = json.cells.find((c: CellResult) => c.id === 'A/single_module_output/upcast/resnet18@bf16');
    expect([upcast.exact, upcast.precision_control.verdict]).toEqual(['degraded', 'bit']);
    const csv = (await cli(['report', file, '--format', 'csv'])).stdout.split('\n');
    const exactColumn = csv[0].split(',').indexOf('exact');
    const row = csv.find((l) => l.includes('upcast') && l.includes('resnet18@bf16'))!;
    expect(row.split(',')[exactColumn]).toBe('degraded');
  });

  it('lets compare see bit -> degraded as worse and degraded -> mismatch as worse still', async () => {
    const { VERDICT_RANK } = await import('../../src/results/effect.ts');
    expect(VERDICT_RANK.close).toBeLessThan(VERDICT_RANK.degraded);
    expect(VERDICT_RANK.degraded).toBeLessThan(VERDICT_RANK.vacuous);
    expect(VERDICT_RANK.vacuous).toBeLessThan(VERDICT_RANK.mismatch);
  });
});
