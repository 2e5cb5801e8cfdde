// Values a format allows but arithmetic does not: a time of zero, a negative time or 1e308 ms made
// compare print `+Infinity%` or `-NaN%` and let `--fail-on-slower` pass. Times are refused when a
// results file is read, naming the field; so are counts past what benchgrid writes. Ids longer than a
// file name can be are refused by validate, before export or run try to make that file.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';
import { edited, refusal, specWithContract } from './hostile-files.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
const BEFORE = path.join(FIXTURES, 'compare/real-run-a.results.json');
const CELL = 'A/single_module_output/hooks/resnet18';
let dir: string;

beforeAll(() => {
  dir = tmpdir('benchgrid-values-');
});

const before = () => JSON.parse(fs.readFileSync(BEFORE, 'utf8')) as unknown;
const editedRun = (edit: (r: Json) => void) => edited(before(), edit);

const everySample = (value: number) => (r: Json) => {
  const c = r.resnet18.groups[CELL];
  c.samples_ms = c.samples_ms.map((p: number[]) => p.map(() => value));
  for (const p of c.per_process) Object.assign(p, { median_ms: value, min_ms: value, max_ms: value });
  Object.assign(c, { median_ms: value, min_ms: value, max_ms: value });
};

describe('times a process cannot have measured are refused when read', () => {
  it.each([
    ['zero', 0],
    ['negative', -1],
    ['1e308', 1e308],
    ['a denormal', 5e-324],
    ['more than a day', 86_400_001],
  ])('every sample of a cell %s', (_, value) => {
    expect(refusal(editedRun(everySample(value)))).toMatch(
      /resnet18\.groups\["A\/single_module_output\/hooks\/resnet18"\]\.(median_ms|samples_ms\[0\]\[0\]): expected a time in milliseconds from 0\.000001 \(a nanosecond\) to 86,400,000 \(one day\)/,
    );
  });

  it.each<[string, (r: Json) => void, RegExp]>([
    [
      'one sample of zero',
      (r) => {
        r.resnet18.groups[CELL].samples_ms[1][3] = 0;
      },
      /samples_ms\[1\]\[3\]: expected a time in milliseconds/,
    ],
    [
      'a per-process median of -0.5',
      (r) => {
        r.resnet18.groups[CELL].per_process[2].median_ms = -0.5;
      },
      /per_process\[2\]\.median_ms: expected a time/,
    ],
    [
      'an A/A median of 0',
      (r) => {
        r.resnet18.meta.aa_noise = { pairs: 1, medians_ms: [0, 1], max_rel_diff: 0, cell: CELL };
      },
      /aa_noise\.medians_ms\[0\]: expected a time/,
    ],
    [
      'a negative interquartile range',
      (r) => {
        r.resnet18.groups[CELL].per_process[0].iqr_ms = -1;
      },
      /iqr_ms: expected a duration in milliseconds from 0/,
    ],
    [
      'a negative wall time',
      (r) => {
        r.resnet18.groups[CELL].per_process[0].wall_s = -3;
      },
      /wall_s: expected a duration in seconds from 0/,
    ],
    [
      'processes: 1e308',
      (r) => {
        r.resnet18.groups[CELL].processes = 1e308;
      },
      /\.processes: expected a whole number from 0 to 1,000/,
    ],
    [
      '1,001 processes of samples',
      (r) => {
        r.resnet18.groups[CELL].samples_ms = Array.from({ length: 1001 }, () => [1]);
      },
      /samples_ms: more than 1,000 processes/,
    ],
    [
      'a process of 100,001 samples',
      (r) => {
        r.resnet18.groups[CELL].samples_ms[0] = new Array(100_001).fill(1);
      },
      /samples_ms\[0\]: more than 100,000 samples/,
    ],
    [
      'a negative peak memory',
      (r) => {
        r.resnet18.groups[CELL].memory = { peak_rss_bytes: [-1], cuda_peak_allocated_bytes: [] };
      },
      /peak_rss_bytes\[0\]: expected a byte count/,
    ],
    [
      'a negative max_abs_diff',
      (r) => {
        r.resnet18.groups[CELL].max_abs_diff = -1;
      },
      /max_abs_diff: expected a number from 0/,
    ],
  ])('%s', (_, edit, pattern) => {
    expect(refusal(editedRun(edit))).toMatch(pattern);
  });

  it('the seed and the fixtures still load: their values are all real measurements', () => {
    for (const f of fs.readdirSync(path.join(FIXTURES, 'compare'))) {
      expect(() => fromJson(JSON.parse(fs.readFileSync(path.join(FIXTURES, 'compare', f), 'utf8')), f)).not.toThrow();
    }
  });
});

describe('compare with such a file exits 2, never a percentage of infinity or a passed gate', () => {
  it.each([0, -1, 1e308])('samples of %s in the after file, with --fail-on-slower 5', async (value) => {
    const after = write(dir, `after-${value}.json`, JSON.stringify(editedRun(everySample(value))));
    for (const format of ['table', 'markdown', 'json']) {
      const r = await cli(['compare', BEFORE, after, '--fail-on-slower', '5', '--format', format]);
      expect(r.code, r.stdout + r.stderr).toBe(2);
      expect(r.stdout + r.stderr).not.toMatch(/Infinity|NaN/);
      expect(r.stderr).toMatch(/expected a time in milliseconds/);
    }
  });
});

describe('ids longer than a file name can be are refused by validate', () => {
  const long = 'c'.repeat(250);
  const spec = () => specWithContract(dir, 'long-id.yaml', long, 'longid');

  it('validate names the cell and the limit, at the contract', async () => {
    const r = await cli(['validate', spec()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /long-id\.yaml:\d+:\d+ contracts\.c+: the cell id 'A\/c+\/raw\/s' makes a file name of 258 bytes; a file name may have at most 255\. Shorten the group, contract, tool or subject name/,
    );
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('export and run exit 2 and write nothing (they crashed on ENAMETOOLONG)', async () => {
    const out = path.join(dir, 'never');
    for (const args of [
      ['export', spec(), '--out', out],
      ['run', spec(), '--out', out, '--python', '/usr/bin/python3'],
    ]) {
      const r = await cli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).not.toMatch(/internal error|ENAMETOOLONG/);
      expect(fs.existsSync(out)).toBe(false);
    }
  });

  it('a spec name longer than a directory name can be is refused too', async () => {
    const file = write(
      dir,
      'long-name.yaml',
      fs
        .readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8')
        .replace(/^name: tiny$/m, `name: ${'n'.repeat(300)}`),
    );
    const r = await cli(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/name: must NOT have more than 200 characters/);
  });
});
