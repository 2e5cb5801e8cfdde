// `benchgrid run SPEC --compare-last`: a real tiny run, twice, in a fresh directory. The first has nothing
// to compare with and says so in one line; the second prints compare's table of itself against the first
// on stderr, leaves stdout to run's JSON summary, and exits as the run does.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/errors.ts';
import { cli, FIXTURES, testPython, tmpdir } from '../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
// One cell, one process: the smallest run there is (as test/executors/local/lock.test.ts runs it).
const ONE_CELL = ['--only', 'A/single_module_output/raw/*', '--processes', '1'];
let cwd: string;
let first: Awaited<ReturnType<typeof cli>>;
let second: Awaited<ReturnType<typeof cli>>;

beforeAll(async () => {
  cwd = tmpdir('benchgrid-run-compare-last-');
  const python = await testPython();
  first = await cli(['run', TINY, ...ONE_CELL, '--python', python, '--compare-last'], { cwd, timeout: 300_000 });
  second = await cli(['run', TINY, ...ONE_CELL, '--python', python, '--compare-last', '--json'], {
    cwd,
    timeout: 300_000,
  });
}, 620_000);

afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));

/** The run directories under results/tiny, oldest first (their names are start times). */
function runDirs(): string[] {
  return fs
    .readdirSync(path.join(cwd, 'results', 'tiny'))
    .filter((d) => d !== 'latest')
    .sort()
    .map((d) => path.join('results', 'tiny', d));
}

describe('run --compare-last', () => {
  it('says in one line that the first run of a spec has nothing to compare with, and exits 0', () => {
    expect(first.code, first.stderr).toBe(EXIT.ok);
    expect(first.stderr).toContain(
      'benchgrid: --compare-last: no earlier complete run of tiny in results/tiny; nothing to compare this run with.',
    );
    expect(first.stderr).not.toMatch(/^Speed:/m);
  });

  it("prints the second run's comparison with the first on stderr, after the summary", () => {
    expect(second.code, second.stderr).toBe(EXIT.ok);
    const [before, after] = runDirs();
    expect(second.stderr).toContain(
      `benchgrid: --compare-last: ${before} (before) against this run, ${after} (after):`,
    );
    expect(second.stderr).toContain(`before: ${before} (benchgrid, spec tiny`);
    expect(second.stderr).toMatch(/^Speed: \d+ slower, \d+ faster, \d+ within noise, \d+ unavailable \(of 1 cell/m);
    expect(second.stderr.indexOf('Results: ')).toBeLessThan(second.stderr.indexOf('--compare-last:'));
  });

  it("leaves stdout to run's JSON summary alone", () => {
    const summary = JSON.parse(second.stdout);
    expect(summary.dir).toBe(path.resolve(cwd, runDirs()[1]));
    expect(second.stdout).not.toContain('Speed:');
  });

  it('is refused with the Slurm executor, which finishes the run in ingest', async () => {
    const r = await cli(['run', TINY, '--executor', 'slurm', '--compare-last'], { cwd });
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('--compare-last is not supported with --executor slurm');
  });
});
