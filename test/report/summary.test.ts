// The summary a run ends with, from the seed's results and its spec: rows, ratios, marks, and widths.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { buildSummary, renderSummary, type Summary } from '../../src/report/summary.ts';
import type { Spec } from '../../src/spec/types.ts';
import { ROOT, PREDECESSOR_RESULTS } from '../helpers.ts';

let results: Results;
let spec: Spec;
let summary: Summary;

beforeAll(async () => {
  results = loadResults(PREDECESSOR_RESULTS);
  spec = await loadSpecForReport(path.join(ROOT, 'specs/resnet18_gpu.yaml'));
  summary = buildSummary(reportInput(results, spec), ['results/x/report.html', 'results/x/report.md']);
});

describe('the run summary of the seed', () => {
  it('has one row per page row, with each tool ratio to raw and to the reference computed from the medians', () => {
    expect(summary.rows.length).toBeGreaterThan(5);
    const all = summary.rows.flatMap((r) => r.entries);
    const hooks = all.find((e) => e.cell === 'A/single_module_output/hooks/resnet18')!;
    const raw = results.cells.find((c) => c.id === 'A/single_module_output/raw/resnet18')!;
    const cell = results.cells.find((c) => c.id === hooks.cell)!;
    expect(hooks.ratio_to_raw).toBeCloseTo(cell.median_ms! / raw.median_ms!, 10);
    // hooks is group A's reference: no ratio to itself.
    expect(hooks.ratio_to_reference).toBeNull();
    const nnsight = all.find((e) => e.cell === 'A/single_module_output/nnsight/resnet18')!;
    expect(nnsight.ratio_to_reference).toBeCloseTo(
      results.cells.find((c) => c.id === nnsight.cell)!.median_ms! / cell.median_ms!,
      10,
    );
    expect(all.find((e) => e.cell === raw.id)?.ratio_to_raw).toBeNull();
  });

  it('renders every line within 80 and 100 columns, and ends with where to open the report', () => {
    for (const width of [80, 100]) {
      const text = renderSummary(summary, width);
      const long = text.split('\n').filter((l) => l.length > width);
      expect(long, `width ${width}`).toEqual([]);
      expect(text).toMatch(/Open the report: results\/x\/report\.html\n/);
      expect(text).toMatch(/\d+ cells: \d+ ok, \d+ error, \d+ unsupported\./);
    }
  });

  it('lines its columns up after a tool label of CJK characters and an emoji, as after a plain one as wide', () => {
    const labelled = (tool: string): Summary => ({
      ...summary,
      rows: summary.rows.map((r, i) =>
        i === 0 ? { ...r, entries: r.entries.map((e, j) => (j === 0 ? { ...e, tool } : e)) } : r,
      ),
    });
    // '钩子🙂' takes six columns, as 'abcdef' does (but four UTF-16 units, which padEnd would count).
    const wide = renderSummary(labelled('钩子🙂'), 100);
    expect(wide).toContain('钩子🙂');
    expect(wide.replaceAll('钩子🙂', 'abcdef')).toBe(renderSummary(labelled('abcdef'), 100));
  });

  it("marks a cell whose work witnesses say 'differs'", () => {
    const cells = results.cells.map((c) =>
      c.id === 'A/single_module_output/nnsight/resnet18'
        ? {
            ...c,
            work: { required: { forwards: 1, parameter_grads: false }, witnesses: [], differs: ['stops at the site'] },
          }
        : c,
    );
    const s = buildSummary(reportInput({ ...results, cells }, spec), []);
    const marked = s.rows
      .flatMap((r) => r.entries)
      .filter((e) => e.work_differs)
      .map((e) => e.cell);
    expect(marked).toEqual(['A/single_module_output/nnsight/resnet18']);
    expect(s.rows.flatMap((r) => r.entries).find((e) => e.work_differs)?.work_differences).toEqual([
      'stops at the site',
    ]);
    expect(renderSummary(s, 100)).toMatch(/work: differs/);
  });
});
