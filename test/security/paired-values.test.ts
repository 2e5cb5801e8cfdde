// The paired fields of a results file (docs/protocol.md, "Pairing"): `paired` {ratio, ci95, pairs,
// baseline, published, processes} and `import_tax` {ratio, ci95} are hostile until read. A ratio of zero,
// a negative or infinite one, an inverted or non-finite interval, or a count of pairs past what a run can
// time would print `x0.00`, `xInfinity` or `NaN` in every report and move compare's paired verdicts:
// each is refused where the file is read, naming the field.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { FIXTURES } from '../helpers.ts';
import { pairedRecord } from '../helpers/paired-record.ts';
import { edited, refusal } from './hostile-files.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
const BEFORE = path.join(FIXTURES, 'compare/real-run-a.results.json');
const CELL = 'A/single_module_output/hooks/resnet18';
const AT = /resnet18\.groups\["A\/single_module_output\/hooks\/resnet18"\]/;

/**
 * A cell's paired fields as benchgrid writes them: one process of two pairs, a tax the run does not show.
 * Its baselines are drawn from the cell's own first samples, so that its ratio (1.25) and tax (1.01) are
 * the ones the loader recomputes from them (src/results/consistency.ts).
 */
function pairedFields(tool: number[]): Json {
  return {
    paired: pairedRecord(tool, { ratio: 1.25, ci95: [1.2, 1.3], published: [1.2, 1.3], tax: 1.01, seed: 12345 }),
    import_tax: { ratio: 1.01, ci95: [0.99, 1.03] },
  };
}

const base = () =>
  edited(JSON.parse(fs.readFileSync(BEFORE, 'utf8')), (r) =>
    Object.assign(r.resnet18.groups[CELL], pairedFields(r.resnet18.groups[CELL].samples_ms[0])),
  );
const withCell = (edit: (c: Json) => void) => edited(base(), (r) => edit(r.resnet18.groups[CELL]));
/** The base file with its cell's field at a dotted path (`paired.processes.0.tax`) set to `value`. */
const withField = (field: string, value: unknown) =>
  withCell((c) => {
    const keys = field.split('.');
    const parent = keys.slice(0, -1).reduce((at, k) => at[k], c);
    parent[keys[keys.length - 1]] = value;
  });
const cellOf = (raw: Json) => fromJson(raw, 'paired.json').cells.find((c) => c.id === CELL)!;

describe('paired fields benchgrid writes load as they are', () => {
  it('a paired ratio, its interval, its pairs and the import tax come back unchanged', () => {
    const c = cellOf(base());
    expect(c.paired?.ratio).toBe(1.25);
    expect(c.paired?.ci95).toEqual([1.2, 1.3]);
    expect(c.paired?.pairs).toBe(2);
    expect(c.paired?.processes[0].tool_first).toEqual([true, false]);
    expect(c.import_tax).toEqual({ ratio: 1.01, ci95: [0.99, 1.03] });
  });

  it("a single process's unbounded interval, written [0, null], reads back as [0, Infinity]", () => {
    const c = cellOf(withField('import_tax.ci95', [0, null]));
    expect(c.import_tax?.ci95).toEqual([0, Infinity]);
  });
});

describe('hostile paired values are refused when read, naming the field', () => {
  it.each<[string, string, unknown, RegExp]>([
    ['a paired ratio of zero', 'paired.ratio', 0, /\.paired\.ratio: expected a positive finite ratio \(got number 0\)/],
    ['a negative paired ratio', 'paired.ratio', -1.25, /\.paired\.ratio: expected a positive finite ratio/],
    [
      'a paired ratio of 1e400 (Infinity once parsed)',
      'paired.ratio',
      Infinity,
      /\.paired\.ratio: expected a positive finite ratio/,
    ],
    [
      'a paired ratio given as text',
      'paired.ratio',
      '1.25',
      /\.paired\.ratio: expected a positive finite ratio \(got "1\.25"\)/,
    ],
    ['an inverted interval', 'paired.ci95', [1.3, 1.2], /\.paired: expected a ratio inside its ci95/],
    ['an interval that leaves out its ratio', 'paired.ci95', [1.3, 1.4], /\.paired: expected a ratio inside its ci95/],
    [
      'an interval of three numbers',
      'paired.ci95',
      [1.2, 1.25, 1.3],
      /\.paired\.ci95: expected two numbers \[low, high\]/,
    ],
    [
      'an interval with a negative low',
      'paired.ci95',
      [-5, 1.3],
      /\.paired\.ci95\[0\]: expected a positive finite ratio/,
    ],
    [
      'an interval with a null low',
      'paired.ci95',
      [null, 1.3],
      /\.paired\.ci95\[0\]: expected a positive finite ratio \(got null\)/,
    ],
    [
      "an interval with an infinite high other than the writer's [0, null]",
      'paired.ci95',
      [1.2, null],
      /\.paired\.ci95\[1\]: expected a positive finite ratio \(got null\)/,
    ],
    ['pairs of 1e308', 'paired.pairs', 1e308, /\.paired\.pairs: expected a whole number from 0 to 100,000,000/],
    ['pairs of 2.5', 'paired.pairs', 2.5, /\.paired\.pairs: expected a whole number/],
    ['negative pairs', 'paired.pairs', -1, /\.paired\.pairs: expected a whole number/],
    ['a baseline that is not text', 'paired.baseline', { toString: 'raw' }, /\.paired\.baseline: expected text/],
    [
      'a published ratio of zero',
      'paired.published.ratio',
      0,
      /\.paired\.published\.ratio: expected a positive finite ratio/,
    ],
    ['a published tax of -1', 'paired.published.tax', -1, /\.paired\.published\.tax: expected a positive finite ratio/],
    [
      'a process whose baseline sample is zero',
      'paired.processes.0.baseline_ms.1',
      0,
      /\.paired\.processes\[0\]\.baseline_ms\[1\]: expected a time in milliseconds/,
    ],
    [
      'a process of 100,001 pair orders',
      'paired.processes.0.tool_first',
      new Array(100_001).fill(true),
      /tool_first: more than 100,000 samples/,
    ],
    ['an import tax of zero', 'import_tax.ratio', 0, /\.import_tax\.ratio: expected a positive finite ratio/],
    [
      'an import tax with an inverted interval',
      'import_tax.ci95',
      [1.03, 0.99],
      /\.import_tax: expected a ratio inside its ci95/,
    ],
    ['an import tax interval of one number', 'import_tax.ci95', [0.99], /\.import_tax\.ci95: expected two numbers/],
  ])('%s', (_, field, value, pattern) => {
    const message = refusal(withField(field, value));
    expect(message).toMatch(AT);
    expect(message).toMatch(pattern);
  });

  it('1,001 paired processes', () => {
    const message = refusal(
      withCell((c) => {
        c.paired.processes = new Array(1001).fill(c.paired.processes[0]);
      }),
    );
    expect(message).toMatch(AT);
    expect(message).toMatch(/\.paired\.processes: more than 1,000 processes/);
  });

  it("the A/A cell's paired ratios are bounded too", () => {
    const aa = (paired: Json) =>
      edited(base(), (r) => {
        r.resnet18.meta.aa_noise = { pairs: 1, medians_ms: [4, 4.1], max_rel_diff: 0.02, cell: CELL, paired };
      });
    expect(refusal(aa({ pairs: 1, ratios: [1.2, 0], max_rel_diff: 0.01 }))).toMatch(
      /aa_noise\.paired\.ratios\[1\]: expected a positive finite ratio/,
    );
    expect(refusal(aa({ pairs: 1e9, ratios: [1.2, 1.21], max_rel_diff: 0.01 }))).toMatch(
      /aa_noise\.paired\.pairs: expected a whole number from 0 to 1,000/,
    );
    expect(refusal(aa({ pairs: 1, ratios: [1.2, 1.21], max_rel_diff: -0.01 }))).toMatch(
      /aa_noise\.paired\.max_rel_diff: expected a number from 0/,
    );
    expect(
      fromJson(aa({ pairs: 1, ratios: [1.2, 1.21], max_rel_diff: 0.008 }), 'aa.json').subjects.resnet18.meta?.aa_noise
        ?.paired?.ratios,
    ).toEqual([1.2, 1.21]);
  });
});
