// Issue 15, the rows about running: Slurm values, interpreters a spec names, cell file names, contract
// ids that differ from their kind, and command-line options past their limits.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.ts';
import { cellSlug } from '../../src/run/run-plan.ts';
import { sbatchScript } from '../../src/executors/slurm/script.ts';
import { resolveSlurm } from '../../src/executors/slurm/settings.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { cli, FIXTURES, testPython, tmpdir, write } from '../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
let dir: string;

beforeAll(() => {
  dir = tmpdir('benchgrid-security-run-');
  fs.copyFileSync(TINY, path.join(dir, 'tiny.yaml'));
});

describe('the Slurm script quotes or refuses every value', () => {
  const context = { cells: 4, device: 'cpu' as const, threads: 1, stamp: 'now', cwd: '/home/me' };

  it.each([
    [
      'partition',
      { partition: 'debug\ntouch PWNED' },
      /--partition must not contain line breaks or control characters \(got "debug\\ntouch PWNED"\)/,
    ],
    ['time limit', { timeLimit: '1:00\ntouch PWNED' }, /--time-limit must be a Slurm time/],
    ['shared directory', { sharedDir: '/x\ntouch PWNED' }, /--shared-dir must not contain line breaks/],
    ['python', { python: '/usr/bin/python3\ntouch PWNED' }, /--python must not contain line breaks/],
    ['partition with a space', { partition: 'debug --wrap=x' }, /--partition must not contain spaces/],
  ])('a %s from the command line with a newline or a space is refused', async (_, options, pattern) => {
    const spec = (await loadSpec(TINY)).spec!;
    const build = () => sbatchScript(resolveSlurm(spec, options, context).settings, spec);
    expect(build).toThrow(UserError);
    expect(build).toThrow(pattern);
  });
});

describe('interpreters a spec names', () => {
  it('env list runs nothing, and env build refuses a script named as python, leaving no trace', async () => {
    const touched = path.join(dir, 'PWNED');
    const script = write(
      dir,
      'script.sh',
      `#!/bin/sh\ntouch ${JSON.stringify(touched)}\necho /usr/bin/python3\necho 3.11.0\n`,
    );
    fs.chmodSync(script, 0o755);
    const spec = write(
      dir,
      'script-python.yaml',
      `benchgrid: 1\nextends: tiny.yaml\nenvironments:\n  main: { python: ${JSON.stringify(script)}, requirements: [] }\n`,
    );
    const cache = path.join(dir, 'cache');
    const list = await cli(['env', 'list', spec, '--json'], { env: { BENCHGRID_CACHE: cache } });
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([
      { id: 'main', python: script, requirements: [], layer: null, built: false, builds: [] },
    ]);
    const build = await cli(['env', 'build', spec], { env: { BENCHGRID_CACHE: cache } });
    expect(build.code).toBe(2);
    expect(build.stderr).toMatch(/is not a compiled program \(a script, perhaps\)/);
    expect(fs.existsSync(touched)).toBe(false);
    expect(fs.existsSync(cache)).toBe(false);
  });
});

describe('cells and contracts', () => {
  it('two cells whose ids looked alike under the old slug get different file names', () => {
    const a = 'A/x__y/hooks/s';
    const b = 'A__x/y/hooks/s';
    expect(cellSlug(a)).not.toBe(cellSlug(b));
    expect(cellSlug(a)).toBe('A+x__y+hooks+s');
  });

  it('a contract whose kind differs from its id runs and measures', async () => {
    const spec = write(
      dir,
      'kind.yaml',
      `benchgrid: 1\nextends: tiny.yaml\ncontracts:\n  my_output: { kind: single_module_output, site: layer2 }\ngroups:\n  C: { subjects: [resnet18], cells: { my_output: [hooks] } }\n`,
    );
    const out = path.join(dir, 'kind-run');
    const r = await cli(
      ['run', spec, '--out', out, '--only', 'C/*/*/*', '--processes', '1', '--python', await testPython()],
      { timeout: 300_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(fs.readFileSync(path.join(out, 'results.json'), 'utf8'));
    const cell = results.resnet18.groups['C/my_output/hooks/resnet18'];
    expect(cell.status, JSON.stringify(cell.error)).toBe('ok');
    expect(cell.median_ms).toBeGreaterThan(0);
  }, 300_000);
});

describe('command-line options past their limits exit 2', () => {
  it('an --only glob over 65,536 characters', async () => {
    const r = await cli(['plan', TINY, '--only', `A/${'*'.repeat(70_000)}`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--only is 70002 characters long; at most 4096 are accepted/);
    expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  });

  it('--processes 1000000000 on export, with nothing written', async () => {
    const out = path.join(dir, 'never');
    const r = await cli(['export', TINY, '--out', out, '--processes', '1000000000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--processes may be at most 1000/);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('processes: 1000000000 in a spec fails validate, so export never starts', async () => {
    const spec = write(dir, 'billion.yaml', 'benchgrid: 1\nextends: tiny.yaml\nprotocol: { processes: 1000000000 }\n');
    const out = path.join(dir, 'never2');
    const r = await cli(['export', spec, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/protocol\.processes: must be <= 1000/);
    expect(fs.existsSync(out)).toBe(false);
  });
});
