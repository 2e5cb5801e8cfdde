// `report` and `compare` accept a run directory and read its results.json.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';

const FIXTURE = path.join(FIXTURES, 'compare/cpu-run.results.json');

describe('a run directory as the results argument', () => {
  it('report DIR and compare DIR DIR read DIR/results.json', async () => {
    const dir = tmpdir();
    fs.copyFileSync(FIXTURE, path.join(dir, 'results.json'));
    const byDir = await cli(['report', dir, '--format', 'markdown']);
    const byFile = await cli(['report', FIXTURE, '--format', 'markdown']);
    expect([byDir.code, byDir.stdout]).toEqual([0, byFile.stdout]);
    const cmp = await cli(['compare', dir, dir, '--format', 'json']);
    expect(cmp.code).toBe(0);
    expect(JSON.parse(cmp.stdout).cells.length).toBeGreaterThan(0);
  });

  it('a directory without results.json is bad input (exit 2), pointing at --resume when it has a journal', async () => {
    const dir = tmpdir();
    write(dir, 'journal.jsonl', '');
    const r = await cli(['report', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${dir}: a directory without results.json (it has a journal: finish the run with \`benchgrid run --resume ${dir}\`)`,
    );
  });
});
