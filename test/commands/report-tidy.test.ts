// `report --format csv|jsonl` as a notebook meets it: the real CLI writes the table, a real python3 reads it
// back with its own csv and json modules, and gets one row per cell with the documented columns.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { TIDY_COLUMNS } from '../../src/report/tidy.ts';
import { cli, FIXTURES, PREDECESSOR_RESULTS, tmpdir, write } from '../helpers.ts';
import { tidyResultsJson } from '../report/tidy-results.ts';

// Reads a CSV file with csv.DictReader, or a JSON Lines file one json.loads per line; prints what it got as JSON.
const READER = `
import csv, json, sys
kind, file = sys.argv[1], sys.argv[2]
with open(file, newline='', encoding='utf-8') as f:
    if kind == 'csv':
        reader = csv.DictReader(f)
        rows = list(reader)
        header = reader.fieldnames
    else:
        rows = [json.loads(line) for line in f]
        header = list(rows[0].keys()) if rows else []
print(json.dumps({'header': header, 'rows': rows}))
`;

type Parsed = { header: string[]; rows: Record<string, string | number | boolean | null>[] };

/** What python3 reads from a file the CLI wrote. */
async function python(kind: 'csv' | 'jsonl', file: string): Promise<Parsed> {
  const r = await execa('python3', ['-c', READER, kind, file], { reject: false });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Parsed;
}

/** `benchgrid report FILE --format FORMAT` to stdout, saved to a file for python3. */
async function exported(results: string, format: 'csv' | 'jsonl', dir: string): Promise<string> {
  const r = await cli(['report', results, '--format', format]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return write(dir, `cells.${format}`, r.stdout + '\n');
}

const byCell = (p: Parsed) => new Map(p.rows.map((r) => [r.cell, r]));

describe("report --format csv of the seed's results file, read by python3's csv module", () => {
  const cells = loadResults(PREDECESSOR_RESULTS).cells;
  let p: Parsed;
  beforeAll(async () => {
    p = await python('csv', await exported(PREDECESSOR_RESULTS, 'csv', tmpdir('benchgrid-tidy-')));
  });

  it('gives the documented header and one row per cell, in file order', () => {
    expect(p.header).toEqual([...TIDY_COLUMNS]);
    expect(p.rows.map((r) => r.cell)).toEqual(cells.map((c) => c.id));
    const row = byCell(p).get('A/single_module_output/nnsight/resnet18')!;
    expect(row).toMatchObject({
      group: 'A',
      contract: 'single_module_output',
      tool: 'nnsight',
      subject: 'resnet18',
      sweep: '',
      median_ms: '2.61',
      min_ms: '2.56',
      max_ms: '2.72',
      status: 'ok',
      exact: 'bit',
      x_raw_paired: 'false',
      device: 'cuda',
    });
    expect(Number(row.x_raw)).toBeCloseTo(2.61 / 2.3, 12);
  });

  it("keeps a failed cell's reason whole through RFC 4180 quoting (it holds commas)", () => {
    expect(byCell(p).get('A/ordered_dataset_features/tl_extract_dataset/resnet18')).toMatchObject({
      status: 'error',
      median_ms: '',
      reason:
        'RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!',
    });
    expect(byCell(p).get('A/single_module_output/tl_bind/resnet18')).toMatchObject({
      status: 'unsupported',
      reason: 'a bound edit records nothing; it serves edit contracts only',
    });
  });
});

describe('report --format csv and jsonl of a benchgrid results file', () => {
  const dir = tmpdir('benchgrid-tidy-');
  const file = write(dir, 'results.json', JSON.stringify(tidyResultsJson()));
  const ids = loadResults(file).cells.map((c) => c.id);

  it('reads back in python3 as one row per cell, the paired figures, work and memory in their columns', async () => {
    const p = await python('csv', await exported(file, 'csv', dir));
    expect(p.header).toEqual([...TIDY_COLUMNS]);
    expect(p.rows.map((r) => r.cell)).toEqual(ids);
    expect(byCell(p).get('A/single_module_output/hooks/resnet18')).toMatchObject({
      x_raw: '1.25',
      x_raw_low: '1.15',
      x_raw_high: '1.35',
      x_raw_paired: 'true',
      import_tax: '1.01',
      import_tax_low: '0.99',
      import_tax_high: '1.03',
      work: 'forwards=1,parameter_grads=false,result_bytes=401408',
      peak_rss_bytes: String(310 * 1024 * 1024),
      dtype: 'float32',
      device: 'cpu',
    });
    expect(byCell(p).get('A/replacement_edit/raw/resnet18')).toMatchObject({
      status: 'error',
      reason: 'ValueError: boom',
      median_ms: '',
    });
  });

  it('as JSON Lines: the same rows, numbers as numbers and missing as null, each line parsed by json.loads', async () => {
    const p = await python('jsonl', await exported(file, 'jsonl', dir));
    expect(p.header).toEqual([...TIDY_COLUMNS]);
    expect(p.rows.map((r) => r.cell)).toEqual(ids);
    expect(byCell(p).get('A/single_module_output/hooks/resnet18')).toMatchObject({
      median_ms: 2.6,
      x_raw: 1.25,
      x_raw_paired: true,
      import_tax_low: 0.99,
      sweep: null,
      exact: null,
    });
    expect(byCell(p).get('A/replacement_edit/tv_fx/resnet18')).toMatchObject({
      status: 'unsupported',
      median_ms: null,
      reason: 'a feature extractor <script>alert(1)</script> reads | outputs',
    });
  });

  it('writes the same bytes to --out as to stdout, and says where on stderr', async () => {
    const out = path.join(dir, 'out/cells.csv');
    const r = await cli(['report', file, '--format', 'csv', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`wrote ${out}`);
    expect(fs.readFileSync(out, 'utf8')).toBe((await cli(['report', file, '--format', 'csv'])).stdout + '\n');
  });

  it("reads a real run's file too: every cell a row, every row every column", async () => {
    const real = path.join(FIXTURES, 'compare/real-run-a.results.json');
    const p = await python('jsonl', await exported(real, 'jsonl', dir));
    expect(p.rows.map((r) => r.cell)).toEqual(loadResults(real).cells.map((c) => c.id));
    for (const row of p.rows) expect(Object.keys(row)).toEqual([...TIDY_COLUMNS]);
    expect(byCell(p).get('A/single_module_output/nnsight/resnet18')).toMatchObject({
      tool_version: '0.8.1',
      exact: 'bit',
      device: 'cpu',
    });
  });
});
