// The tidy table (report --format csv|jsonl): one flat row per cell, from benchgrid's results and the seed's alike.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromJson, loadResults } from '../../src/results/load.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { splitSweep, tidyRows, TIDY_COLUMNS, witnessText, type TidyRow } from '../../src/report/tidy.ts';
import { PREDECESSOR_RESULTS, ROOT } from '../helpers.ts';
import { tidyResultsJson } from './tidy-results.ts';

const rowsOf = (raw: Record<string, unknown>) => tidyRows(reportInput(fromJson(raw), null));
const byCell = (rows: TidyRow[]) => new Map(rows.map((r) => [r.cell, r]));
/** What the row of a cell without a measured result holds: its status and reason, and no time or ratio. */
const unmeasured = (status: TidyRow['status'], reason: unknown) => ({ status, reason, median_ms: null, x_raw: null });

describe('the tidy rows of a benchgrid results file', () => {
  const rows = rowsOf(tidyResultsJson());
  const cell = byCell(rows);

  it('has one row per cell, in file order, each with every column in order', () => {
    expect(rows.map((r) => r.cell)).toEqual(fromJson(tidyResultsJson()).cells.map((c) => c.id));
    for (const r of rows) expect(Object.keys(r)).toEqual([...TIDY_COLUMNS]);
  });

  it('gives a paired cell its published ratio and interval, its import tax, its work, memory, versions, dtype and device', () => {
    expect(cell.get('A/single_module_output/hooks/resnet18')).toEqual({
      cell: 'A/single_module_output/hooks/resnet18',
      group: 'A',
      contract: 'single_module_output',
      tool: 'hooks',
      subject: 'resnet18',
      sweep: null,
      median_ms: 2.6,
      min_ms: 2.5,
      max_ms: 2.7,
      processes: 2,
      // The published interval (it carries the run-to-run component), not the paired ratio's own [1.2, 1.3].
      x_raw: 1.25,
      x_raw_low: 1.15,
      x_raw_high: 1.35,
      x_raw_paired: true,
      import_tax: 1.01,
      import_tax_low: 0.99,
      import_tax_high: 1.03,
      status: 'ok',
      reason: null,
      exact: null,
      max_abs_diff: null,
      top1_agreement: null,
      tv_distance: null,
      tokens_part_at: null,
      effect_max_abs_diff: null,
      effect_vacuous: null,
      work: 'forwards=1,parameter_grads=false,result_bytes=401408',
      work_differs: null,
      peak_rss_bytes: 310 * 1024 * 1024,
      cuda_peak_bytes: null,
      memory_grows_kib_per_call: null,
      tool_version: null,
      versions: 'torch=2.14.1+cpu;python=3.11.7',
      dtype: 'float32',
      device: 'cpu',
    });
  });

  it('leaves the interval of an unpaired ratio empty: the extremes of two sets of process medians are not one', () => {
    const r = cell.get('A/single_module_output/nnsight/resnet18')!;
    expect(r.x_raw).toBeCloseTo(1117.248 / 2.2, 9);
    expect([r.x_raw_low, r.x_raw_high, r.x_raw_paired, r.import_tax]).toEqual([null, null, false, null]);
    expect([r.exact, r.max_abs_diff, r.tool_version]).toEqual(['mismatch', 0.5, '0.8.1']);
    // The cell's own runtime comes before the subject's record.
    expect(r.versions).toBe('nnsight=0.8.1;torch=2.13.0;python=3.10.19');
    expect(r.work).toBe(
      'forwards=2,parameter_grads=false,result_bytes=8;forwards=1,parameter_grads=false,result_bytes=8',
    );
    expect(r.work_differs).toBe('calls the model twice');
  });

  it('gives a decoder cell its agreement, a writing cell its guard, and a growing cell its KiB per call', () => {
    const raw = tidyResultsJson();
    const MiB = 1024 * 1024;
    Object.assign(
      (raw.resnet18 as { groups: Record<string, object> }).groups['A/single_module_output/nnsight/resnet18'],
      {
        effect: { max_abs_diff: 3.2, vacuous: false, top1_agreement: 0.25, tv_distance: 0.4 },
        agreement: { top1_agreement: 0.75, tv_distance: 0.05, first_divergence: 2 },
        memory_growth: {
          calls: [20, 20, 20],
          rss_per_call_bytes: [MiB, MiB, 1.02 * MiB],
          cuda_per_call_bytes: [null, null, null],
          rss_before_bytes: [300 * MiB, 300 * MiB, 300 * MiB],
          cuda_before_bytes: [null, null, null],
        },
      },
    );
    const r = byCell(rowsOf(raw)).get('A/single_module_output/nnsight/resnet18')!;
    expect([r.top1_agreement, r.tv_distance, r.tokens_part_at]).toEqual([0.75, 0.05, 2]);
    expect([r.effect_max_abs_diff, r.effect_vacuous]).toEqual([3.2, false]);
    expect(r.memory_grows_kib_per_call).toBe(1024);
  });

  it('keeps the raw cell without a ratio: it is what the others are divided by', () => {
    const r = cell.get('A/single_module_output/raw/resnet18')!;
    expect([r.x_raw, r.x_raw_paired, r.exact]).toEqual([null, null, 'not compared']);
  });

  it('gives a failed and an unsupported cell a row with their status and the first line of their reason', () => {
    expect(cell.get('A/replacement_edit/nnsight/resnet18')).toMatchObject({
      ...unmeasured('error', 'RuntimeError: found two devices, cuda:0 and cpu'),
      exact: null,
      peak_rss_bytes: null,
    });
    expect(cell.get('A/replacement_edit/tv_fx/resnet18')).toMatchObject(
      unmeasured('unsupported', 'a feature extractor <script>alert(1)</script> reads | outputs'),
    );
  });
});

describe("the tidy rows of the seed's results file", () => {
  const results = loadResults(PREDECESSOR_RESULTS);
  const rows = tidyRows(reportInput(results, null));
  const cell = byCell(rows);

  it('has a row for every one of its 83 cells: 48 measured, 34 not run, 1 failed', () => {
    expect(rows).toHaveLength(83);
    expect(rows.map((r) => r.cell)).toEqual(results.cells.map((c) => c.id));
    const count = (s: string) => rows.filter((r) => r.status === s).length;
    expect([count('ok'), count('unsupported'), count('error')]).toEqual([48, 34, 1]);
  });

  it('reads a measured cell: the median and range, an unpaired x raw, the verdict, versions from the subject, the device', () => {
    expect(cell.get('A/single_module_output/nnsight/resnet18')).toMatchObject({
      median_ms: 2.61,
      min_ms: 2.56,
      max_ms: 2.72,
      processes: 3,
      x_raw: 2.61 / 2.3,
      x_raw_low: null,
      x_raw_high: null,
      x_raw_paired: false,
      import_tax: null,
      exact: 'bit',
      work: null,
      peak_rss_bytes: null,
      tool_version: '0.8.1',
      versions: 'nnsight=0.8.1;torch=2.13.0+cu126;python=3.10.19',
      dtype: null,
      device: 'cuda',
    });
  });

  it("says what the file says about exactness: Captum's `true` is close, the reference tool's absent verdict empty", () => {
    expect(cell.get('A/same_site_gradient/captum/resnet18')).toMatchObject({ exact: 'close', tool_version: '0.9.0' });
    expect(cell.get('A/single_module_output/hooks/resnet18')!.exact).toBeNull();
  });

  it('keeps the cells that did not run, with their reason', () => {
    expect(cell.get('A/same_site_gradient/nnsight/resnet18')).toMatchObject(
      unmeasured('unsupported', 'the .grad proxy resolved to None in this nnsight version'),
    );
    expect(cell.get('A/ordered_dataset_features/tl_extract_dataset/resnet18')).toMatchObject(
      unmeasured('error', expect.stringContaining('found at least two devices')),
    );
  });
});

describe('a spec given to the tidy rows', () => {
  it("names a tool's library in its versions, as its runner manifest does", async () => {
    const input = reportInput(
      loadResults(PREDECESSOR_RESULTS),
      await loadSpecForReport(path.join(ROOT, 'specs/resnet18_gpu.yaml')),
    );
    expect(byCell(tidyRows(input)).get('A/single_module_output/tl_record/resnet18')).toMatchObject({
      tool_version: '2.36.3',
      versions: 'torchlens=2.36.3;torch=2.13.0+cu126;python=3.10.19',
    });
  });
});

describe('sweep values in a subject id', () => {
  it('are split off the subject name as key=value pairs joined by ;', () => {
    expect(splitSweep('gpt2@batch=8')).toEqual({ name: 'gpt2', sweep: 'batch=8' });
    expect(splitSweep('gpt2@batch=8@seq=128')).toEqual({ name: 'gpt2', sweep: 'batch=8;seq=128' });
    expect(splitSweep('gpt2@batch=8,seq=128')).toEqual({ name: 'gpt2', sweep: 'batch=8;seq=128' });
  });

  it('are empty for the ids of today, which carry none', () => {
    expect(splitSweep('resnet18')).toEqual({ name: 'resnet18', sweep: null });
  });
});

describe('the work witnesses in one field', () => {
  it('lists each distinct witness set once, and is empty where the file has none', () => {
    const w = { forwards: 1, parameter_grads: true, result_bytes: 4, tokens: 'same' as const };
    expect(witnessText({ required: null, witnesses: [w, w], differs: [] })).toBe(
      'forwards=1,parameter_grads=true,result_bytes=4,tokens=same',
    );
    expect(witnessText(null)).toBeNull();
  });
});

describe('docs/report.md', () => {
  it('lists every tidy column, in order, in its Tidy exports section', () => {
    const md = fs.readFileSync(path.join(ROOT, 'docs/report.md'), 'utf8');
    const section = md.slice(md.indexOf('## Tidy exports'));
    const listed = [...section.matchAll(/^\| `([a-z_0-9]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual([...TIDY_COLUMNS]);
  });
});
