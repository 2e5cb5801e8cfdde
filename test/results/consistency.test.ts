// A results file's derived figures must be those of the samples stored beside them (src/results/consistency.ts):
// a file edited to say something else is refused when read, naming the file, the cell and the field.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellInconsistency } from '../../src/results/consistency.ts';
import { fromJson } from '../../src/results/load.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';
import { edited, refusal } from '../security/hostile-files.ts';
import { cpuRun } from '../compare/fixtures.ts';

const REAL = path.join(FIXTURES, 'compare/real-run-a.results.json');
const CELL = 'A/single_module_output/hooks/resnet18';
const real = () => JSON.parse(fs.readFileSync(REAL, 'utf8'));
const cellOf = (r: Record<string, any>) => r.resnet18.groups[CELL]; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path

describe('derived figures agree with their samples', () => {
  it("benchgrid's own files and the hand-built runs of the tests pass", () => {
    expect(fromJson(real(), 'real.json').cells.length).toBeGreaterThan(0);
    for (const c of cpuRun().cells) expect(cellInconsistency(c)).toBeNull();
  });

  it('a cell without raw samples (the seed, older runs) has nothing to check and passes', () => {
    const r = edited(real(), (x) => {
      cellOf(x).samples_ms = null;
      cellOf(x).per_process = null;
      cellOf(x).median_ms *= 10;
    });
    expect(fromJson(r, 'old.json').cells.find((c) => c.id === CELL)?.median_ms).toBe(cellOf(real()).median_ms * 10);
  });

  it.each<[string, (c: Record<string, any>) => void, RegExp]>([
    // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
    [
      'the median x10',
      (c) => {
        c.median_ms *= 10;
      },
      /: cell A\/single_module_output\/hooks\/resnet18: median [\d.]+ ms is not the median of its processes' medians \([\d.]+ ms\); the file was edited or is corrupt\./,
    ],
    [
      'the min x10',
      (c) => {
        c.min_ms *= 10;
      },
      /: min [\d.]+ ms is not the smallest of its processes' medians/,
    ],
    [
      'the max /2',
      (c) => {
        c.max_ms /= 2;
      },
      /: max [\d.]+ ms is not the largest of its processes' medians/,
    ],
    [
      'a process median x10 with the cell median',
      (c) => {
        c.per_process[0].median_ms *= 10;
      },
      /: per_process\[0\]\.median_ms [\d.]+ ms is not the median of samples_ms\[0\]/,
    ],
    [
      'a process count',
      (c) => {
        c.processes += 1;
      },
      /: processes \d+ is not the number of processes with samples/,
    ],
    [
      'a sample count',
      (c) => {
        c.samples_per_process[0] += 1;
      },
      /: samples_per_process \[.*\] does not count its samples/,
    ],
  ])('%s is refused', (_, edit, pattern) => {
    expect(refusal(edited(real(), (r) => edit(cellOf(r))))).toMatch(pattern);
  });

  it('every figure within rounding of its samples is accepted', () => {
    const r = edited(real(), (x) => {
      cellOf(x).median_ms *= 1 + 1e-12;
    });
    expect(() => fromJson(r, 'rounded.json')).not.toThrow();
  });
});

describe('compare --fail-on-slower refuses a file whose medians were edited', () => {
  it('exits 2 naming the file, the cell and the field', async () => {
    const dir = tmpdir('benchgrid-consistency-');
    const raw = real();
    const before = write(dir, 'before.json', JSON.stringify(raw));
    // Every median x10, the raw samples as they were: by its samples the run is unchanged.
    const after = write(
      dir,
      'results.json',
      JSON.stringify(
        edited(raw, (r) => {
          for (const c of Object.values<Record<string, any>>(r.resnet18.groups))
            if (typeof c.median_ms === 'number') c.median_ms *= 10; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
        }),
      ),
    );
    const r = await cli(['compare', before, after, '--fail-on-slower', '5%']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(
      /results\.json: cell A\/[^:]+: median [\d.]+ ms is not the median of its processes' medians \([\d.]+ ms\); the file was edited or is corrupt\./,
    );
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
