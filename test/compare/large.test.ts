// Scale (issue 38): compare and report of results files of 200,000 cells finish and print every cell. The
// grids are drawn in one pass past cli-table3's size (src/util/grid-lines.ts); no timing is asserted.
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tmpdir } from '../helpers.ts';
import { writeLargeResults } from './large-results.ts';

const CONTRACTS = 20_000;
const TOOLS = 10;

describe('200,000 cells', () => {
  let dir: string;
  let before: string;
  let after: string;
  beforeAll(() => {
    dir = tmpdir('benchgrid-large-');
    before = writeLargeResults(dir, 'before.json', { contracts: CONTRACTS, tools: TOOLS });
    after = writeLargeResults(dir, 'after.json', { contracts: CONTRACTS, tools: TOOLS, scale: 1.5, samples: false });
    return () => fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('report --format table draws every row of the grid', async () => {
    const r = await cli(['report', '--format', 'table', before], { timeout: 600_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`A / s: ${CONTRACTS * TOOLS} ok, 0 failed, 0 not run`);
    expect(r.stdout).toContain(`│ c${CONTRACTS - 1} `);
    expect(r.stdout).toContain(`${CONTRACTS * TOOLS} cells: ${CONTRACTS * TOOLS} ok, 0 failed, 0 not run.`);
  }, 600_000);

  it('compare draws a row for every cell and judges them', async () => {
    // Neither side has raw samples: the range rule judges them (bootstrapping 200,000 cells takes many minutes).
    const bare = writeLargeResults(dir, 'before-bare.json', { contracts: CONTRACTS, tools: TOOLS, samples: false });
    const r = await cli(['compare', bare, after, '--fail-on-slower', '10%'], { timeout: 600_000 });
    expect(r.code, r.stderr).toBe(4);
    // A grid wider than the terminal is drawn in parts that repeat the cell column: every cell, in each part.
    const ids = r.stdout.split('\n').flatMap((l) => /^│ (A\/c\d+\/t\d+\/s) /.exec(l)?.[1] ?? []);
    expect(new Set(ids).size).toBe(CONTRACTS * TOOLS);
    expect(ids.length % (CONTRACTS * TOOLS)).toBe(0);
    // The line wraps: read it with its line breaks as spaces.
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
      /--fail-on-slower 10\.0%: 200000 cell\(s\) significantly slower by more than that: A\/c0\/t0\/s, .* and 199000 more \(all in --format json\)/,
    );
  }, 600_000);
});
