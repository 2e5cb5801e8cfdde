// The conventions every command shares: examples in --help, exit codes per class, --json as
// --format json, and a JSON error object on stdout when a command asked for JSON fails.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.ts';
import { cli, FIXTURES, ROOT, PREDECESSOR_RESULTS, tmpdir, write } from '../helpers.ts';

const COMMANDS = [
  'init',
  'validate',
  'plan',
  'run',
  'bench-change',
  'report',
  'compare',
  'diff',
  'ratios',
  'history',
  'env',
  'export',
  'ingest',
  'tools',
  'system',
];

describe('--help', () => {
  it('of every command has examples, and the top level lists the exit codes', async () => {
    for (const command of COMMANDS) {
      const r = await cli([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.stdout, command).toMatch(new RegExp(`\\nExamples:\\n {2}\\$ benchgrid ${command}`));
    }
    const top = await cli(['--help']);
    for (const code of Object.values(EXIT)) expect(top.stdout).toMatch(new RegExp(`\\n {2}${code} +\\S`));
  }, 120_000);
});

describe('exit codes, one per class', () => {
  it('0 success, 2 bad input, 4 a difference found; distinct from 1 (a bug)', async () => {
    const pair = (d: string) => [
      path.join(FIXTURES, 'diff', d, 'old.yaml'),
      path.join(FIXTURES, 'diff', d, 'new.yaml'),
    ];
    expect((await cli(['validate', path.join(FIXTURES, 'specs/tiny.yaml')])).code).toBe(EXIT.ok);
    expect((await cli(['validate', path.join(tmpdir(), 'missing.yaml')])).code).toBe(EXIT.usage);
    expect((await cli(['diff', ...pair('rename'), '--exit-code'])).code).toBe(EXIT.differenceFound);
    expect(EXIT.differenceFound).not.toBe(EXIT.internal);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.values(EXIT).length);
  }, 120_000);

  it('3 when the run cannot proceed (an environment that pip cannot build)', async () => {
    const tiny = fs
      .readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8')
      .replace(/^# yaml-language-server.*\n/, '');
    const dir = tmpdir();
    const spec = write(
      dir,
      'tiny.yaml',
      tiny.replace(
        /^subjects:/m,
        'environments:\n  main: { default: true, requirements: ["torch==0.0.0.1"] }\nsubjects:',
      ),
    );
    const r = await cli(['run', spec, '--out', path.join(dir, 'run')], {
      env: { BENCHGRID_CACHE: path.join(dir, 'cache') },
      timeout: 300_000,
    });
    expect([r.code, r.stderr]).toEqual([EXIT.runFailed, expect.stringContaining("building environment 'main' failed")]);
  }, 300_000);
});

describe('--json and --format json', () => {
  it('are the same option: report prints the same JSON either way, diff takes table (and its old name terminal)', async () => {
    const a = await cli(['report', PREDECESSOR_RESULTS, '--json']);
    const b = await cli(['report', PREDECESSOR_RESULTS, '--format', 'json']);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const pair = [path.join(FIXTURES, 'diff/rename/old.yaml'), path.join(FIXTURES, 'diff/rename/new.yaml')];
    const table = await cli(['diff', ...pair, '--format', 'table']);
    expect((await cli(['diff', ...pair, '--format', 'terminal'])).stdout).toBe(table.stdout);
    expect(JSON.parse((await cli(['diff', ...pair, '--json'])).stdout).diffs).toHaveLength(1);
  }, 120_000);

  it('a failing plan, report or compare with JSON asked for prints a JSON error object on stdout', async () => {
    const bad = write(tmpdir(), 'bad.yaml', 'benchgrid: 1\nname: x\n');
    const plan = await cli(['plan', bad, '--json']);
    expect(plan.code).toBe(2);
    expect(JSON.parse(plan.stdout).error).toMatchObject({
      exit_code: 2,
      kind: 'bad_input',
      message: expect.stringContaining('is not a valid spec'),
    });
    expect(JSON.parse(plan.stdout).error.diagnostics.length).toBeGreaterThan(0);
    const report = await cli(['report', path.join(tmpdir(), 'none.json'), '--format', 'json']);
    expect(JSON.parse(report.stdout).error).toMatchObject({
      exit_code: 2,
      kind: 'bad_input',
      message: expect.stringContaining('no such file'),
    });
    const usage = await cli(['compare', PREDECESSOR_RESULTS, '--json']);
    expect(JSON.parse(usage.stdout).error).toMatchObject({ exit_code: 2, kind: 'bad_input' });
    expect((await cli(['plan', bad])).stdout).toBe('');
    expect(ROOT).toBeTruthy();
  }, 120_000);
});
