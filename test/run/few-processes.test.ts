// A run of fewer processes than compare and history need is said to be so, where it is made and where it
// is read (it used to run without a word, then compare called every cell unavailable and history said
// "No regression found."); and `plan` estimates the next run's wall time from it.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.ts';
import { cli, FIXTURES, testPython, tmpdir } from '../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
let cwd: string;
let run: Awaited<ReturnType<typeof cli>>;
let dir: string;

beforeAll(async () => {
  cwd = tmpdir();
  // tiny.yaml's protocol runs 2 processes per cell; the default --out is results/tiny/<time> under cwd
  run = await cli(['run', TINY, '--only', 'A/single_module_output/*/*', '--python', await testPython()], {
    cwd,
    timeout: 400_000,
  });
  dir = path.join(
    cwd,
    'results',
    'tiny',
    fs.readdirSync(path.join(cwd, 'results', 'tiny')).find((d) => d !== 'latest')!,
  );
}, 420_000);

describe('a 2-process run', () => {
  it('warns when it starts that compare and history cannot judge it', () => {
    expect(run.code, run.stderr).toBe(EXIT.ok);
    expect(run.stderr).toMatch(
      /warning: 2 processes per cell: compare and history need 3 to see the noise between processes/,
    );
  });

  // raw's cell has 4 processes (the blocks of its row's paired processes), so 2 of the 3 cells ran only 2.
  it('is said to be too short by compare, so unavailable does not read as unchanged', async () => {
    const r = await cli(['compare', dir, dir], { cwd });
    expect(r.stderr).toMatch(
      /warning: .*: 2 of its 3 measured cells ran 2 process\(es\); a speed label needs 3 on each side, so they are unavailable, not unchanged\. Measure with --processes 3 or more\./,
    );
  });

  it('is said to be too short by history, on the terminal and on the site', async () => {
    const out = path.join(tmpdir(), 'site');
    const r = await cli(['history', dir, '--out', out], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /warning: 2 measured cell\(s\) in 1 run\(s\) ran fewer than 3 processes: no regression or improvement can be found in them/,
    );
    expect(fs.readFileSync(path.join(out, 'index.html'), 'utf8')).toMatch(
      /No regression found\. 2 measured cell\(s\) in 1 run\(s\) ran fewer than 3 processes, so no change in them can be judged/,
    );
  });

  it('gives plan a wall-time estimate for the next run of the spec', async () => {
    const r = await cli(['plan', TINY, '--only', 'A/single_module_output/*/*,B/**'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toMatch(
      /A run starts 10 processes for 5 cells \(8 timing, 2 control\); 1 raw cell is timed inside its row's paired processes and starts no timing process of its own\./,
    );
    // raw is timed in its row's paired processes, so it starts no timing process, only its row's 2 control
    // processes: those and the 4 processes of the last run's hooks and tv_fx cells are timed there; B's 4
    // take the mean of the timing processes
    expect(text).toMatch(
      /Wall time: about \d+ (s|min), from the last run of this spec here \(results\/tiny\/[\dT-]+, started [\dT:.-]+Z; 6 of 10 processes timed there/,
    );
  });
});
