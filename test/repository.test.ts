// A clone is all it takes: nothing the repository tracks may reach outside it for data.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { loadResults } from '../src/results/load.ts';
import { ROOT, PREDECESSOR_RESULTS } from './helpers.ts';

// Built from parts so this file does not name the path it looks for.
const OUTSIDE = ['..', 'shared'].join('/');

describe('the repository is self-contained', () => {
  it('no tracked file names the folder beside the checkout where the seeds once lived', async () => {
    const { stdout } = await execa('git', ['ls-files', '-z'], { cwd: ROOT });
    const offenders = stdout
      .split('\0')
      .filter((f) => f && fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile())
      .filter((f) => fs.readFileSync(path.join(ROOT, f)).includes(OUTSIDE));
    expect(offenders).toEqual([]);
  });

  it('carries the seed results file as reference data, with a README saying where it comes from', () => {
    expect(path.relative(ROOT, PREDECESSOR_RESULTS)).toBe(path.join('reference', 'resnet18_gpu.results.json'));
    const seed = loadResults(PREDECESSOR_RESULTS);
    expect(seed.cells.length).toBe(83);
    const readme = fs.readFileSync(path.join(ROOT, 'reference/README.md'), 'utf8');
    expect(readme).toMatch(/RTX 2080 Ti/);
  });
});
