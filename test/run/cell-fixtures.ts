// What the tests that run a fixture spec share: running it once before the file's tests (with the test
// interpreter, or in the spec's own environments as the decoder specs need) and finding a cell of the run.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, expect } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { CellResult, Results } from '../../src/results/model.ts';
import { cli, runSpec, tmpdir } from '../helpers.ts';

/** The cell of this id; a missing one fails the test with its id. */
export function cellOf(results: Results, id: string): CellResult {
  const c = results.cells.find((x) => x.id === id);
  if (!c) throw new Error(`no cell ${id}`);
  return c;
}

/**
 * Runs SPEC once before the file's tests, as runSpec does: the run's folder and results, there once the
 * tests run.
 */
export function runBeforeAll(spec: string, timeout: number): { out: string; results: Results } {
  const run = { out: '', results: { cells: [] } as unknown as Results };
  beforeAll(async () => {
    Object.assign(run, await runSpec(spec, timeout));
  }, timeout + 60_000);
  return run;
}

/**
 * Before the file's tests, `benchgrid env build SPEC` (nothing to do where they are cached), then `benchgrid run
 * SPEC --schedule sequential` in those environments into a fresh folder, which must exit 0 and write results.json;
 * the run's results, there once the tests run.
 */
export function runInSpecEnvsBeforeAll(spec: string, timeout: number): { results: Results } {
  const run = { results: { cells: [] } as unknown as Results };
  beforeAll(
    async () => {
      const built = await cli(['env', 'build', spec], { timeout: 1_800_000 });
      expect(built.code, built.stderr.slice(-2000)).toBe(0);
      const out = path.join(tmpdir(), 'run');
      const r = await cli(['run', spec, '--out', out, '--schedule', 'sequential'], { timeout });
      expect(r.code, r.stderr.slice(-3000)).toBe(0);
      expect(fs.existsSync(path.join(out, 'results.json'))).toBe(true);
      run.results = loadResults(path.join(out, 'results.json'));
    },
    1_800_000 + timeout + 60_000,
  );
  return run;
}
