import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../src/results/write.ts';
import { stableStringify } from '../../src/util/json.ts';
import { cli, ROOT, PREDECESSOR_RESULTS, tmpdir } from '../helpers.ts';
import { CPU_RUN_FIXTURE, cpuRun } from './fixtures.ts';

const CPU = path.join(ROOT, CPU_RUN_FIXTURE);
let dir: string;
let base: string;
let slower: string;

beforeAll(() => {
  dir = tmpdir('benchgrid-compare-');
  base = path.join(dir, 'base.json');
  slower = path.join(dir, 'slower.json');
  fs.writeFileSync(base, stableStringify(toJson(cpuRun({ seed: 1 }))));
  // Every tool but raw 30% slower: raw is each cell's baseline, so the ratio rule sees the tools' slowdown.
  fs.writeFileSync(
    slower,
    stableStringify(
      toJson(cpuRun({ seed: 2, toolScale: { hooks: 1.3, nnsight: 1.3, tl_record: 1.3, tv_fx: 1.3, fx_tracer: 1.3 } })),
    ),
  );
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `benchgrid compare ARGS --format json`, which must exit 0: the comparison model. */
async function compareJson(args: string[]) {
  const r = await cli(['compare', ...args, '--format', 'json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

/** `benchgrid compare ARGS`, which must refuse with exit 2 and say what is wrong on stderr. */
async function expectRefused(args: string[], message: string | RegExp) {
  const r = await cli(['compare', ...args]);
  expect(r.code).toBe(2);
  if (typeof message === 'string') expect(r.stderr).toContain(message);
  else expect(r.stderr).toMatch(message);
}

describe('benchgrid compare', () => {
  it('compares the seed with itself: no faster or slower label, exit 0', async () => {
    const r = await cli(['compare', PREDECESSOR_RESULTS, PREDECESSOR_RESULTS]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Speed: 0 slower, 0 faster, 48 within noise, 35 unavailable (of 83 cells)');
    expect(r.stdout).toContain('Environment: no differences recorded.');
    expect(r.stdout).not.toMatch(/│ (slower|faster)/);
  });

  it('compares the seed with a CPU run and names the device difference at the top', async () => {
    const r = await cli(['compare', PREDECESSOR_RESULTS, CPU], { env: { COLUMNS: '200' } });
    expect(r.code).toBe(0);
    const top = r.stdout.split('\n').slice(0, 6).join('\n');
    expect(top).toMatch(/Environment differs \(\d+ blocking\)/);
    expect(top).toContain('device: cuda -> cpu');
  });

  it('refuses with --strict-env when the environments differ (exit 2, the list on stderr)', async () => {
    const r = await cli(['compare', PREDECESSOR_RESULTS, CPU, '--strict-env']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^benchgrid: refusing to compare .* \(--strict-env\): the environments differ:/);
    expect(r.stderr).toContain('  device: cuda -> cpu');
  });

  it('accepts --strict-env when nothing blocking differs', async () => {
    expect((await cli(['compare', base, slower, '--strict-env'])).code).toBe(0);
  });

  it('exits 4 (a difference found) with --fail-on-slower when a cell is significantly slower by more than the percentage', async () => {
    const failing = await cli(['compare', base, slower, '--fail-on-slower', '5']);
    expect(failing.code).toBe(4);
    expect(failing.stdout).toMatch(/--fail-on-slower 5\.0%: 5 cell\(s\) significantly slower by more than that/);
    const passing = await cli(['compare', base, slower, '--fail-on-slower', '50']);
    expect(passing.code).toBe(0);
    expect(passing.stdout).toContain('--fail-on-slower 50.0%: no cell is significantly slower by more than that.');
  });

  it('prints the model with --format json, environment first', async () => {
    const c = await compareJson([PREDECESSOR_RESULTS, CPU]);
    expect(Object.keys(c).slice(0, 3)).toEqual(['format', 'version', 'environment']);
    expect(c.environment.differences[0]).toMatchObject({ key: 'device', before: 'cuda', after: 'cpu' });
    expect(c.summary.slower).toBe(3);
  });

  it('prints markdown with --format markdown and writes it with --out', async () => {
    const out = path.join(dir, 'comment.md');
    const r = await cli(['compare', base, slower, '--format', 'markdown', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`wrote the comparison to ${out}`);
    expect(fs.readFileSync(out, 'utf8')).toMatch(
      /^<!-- benchgrid:compare -->\n### benchgrid compare: 5 slower, 0 faster/,
    );
  });

  it('takes --mode absolute, and rejects an unknown mode naming the choices', async () => {
    const c = await compareJson([base, slower, '--mode', 'absolute']);
    expect(c.settings.mode).toBe('absolute');
    expect(c.cells.filter((x: { speed: { decided_by?: string } }) => x.speed.decided_by === 'ratio')).toEqual([]);
    await expectRefused([base, slower, '--mode', 'relative'], "'relative' is invalid");
  });

  it('rejects a bad --threshold, naming the option and the value', async () => {
    await expectRefused(
      [base, slower, '--threshold', 'lots'],
      '--threshold: expected a percentage from 0 to 100, such as 2 or 0.5 (got "lots").',
    );
  });

  it('rejects an unknown --format', async () => {
    await expectRefused([base, slower, '--format', 'html'], /--format <format>' argument 'html' is invalid/);
  });

  it('names a missing file', async () => {
    await expectRefused([path.join(dir, 'nope.json'), base], 'nope.json: cannot read the results file (no such file)');
  });
});
