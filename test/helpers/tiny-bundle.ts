// The tiny spec exported as a bundle, for the tests that hand ingest a bundle with one of its files made
// hostile: a real `benchgrid export` of test/fixtures/specs/tiny.yaml, one process a cell.
import path from 'node:path';
import { expect } from 'vitest';
import { cli, FIXTURES } from '../helpers.ts';

/** Exports the tiny spec's cells that `only` selects into `out` (a path that does not exist yet); returns `out`. */
export async function exportTinyBundle(out: string, only: string): Promise<string> {
  const tiny = path.join(FIXTURES, 'specs/tiny.yaml');
  const r = await cli(['export', tiny, '--out', out, '--only', only, '--processes', '1']);
  expect(r.code, r.stderr).toBe(0);
  return out;
}
