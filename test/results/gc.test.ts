// The garbage-collection cost of a cell (src/results/gc.ts) and where the reports show it.
import { describe, expect, it } from 'vitest';
import { gcMedian, gcSamples, gcSignificant } from '../../src/results/gc.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTable } from '../../src/report/table.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { measuredCell, resultsOf } from '../compare/simulate.ts';

describe('gc figures', () => {
  it('takes per-process gc samples only when every process recorded them', () => {
    expect(gcSamples([{ gc_ms: [1, 2] }, { gc_ms: [3] }])).toEqual([[1, 2], [3]]);
    expect(gcSamples([{ gc_ms: [1, 2] }, {}])).toBeNull();
    expect(gcSamples([])).toBeNull();
  });

  it('is the median of the per-process medians', () => {
    expect(
      gcMedian([
        [1, 2, 3],
        [10, 20, 30],
        [4, 5, 6],
      ]),
    ).toBe(5);
    expect(gcMedian(null)).toBeNull();
  });

  it('is significant from 5% of the median and 0.05 ms', () => {
    expect(gcSignificant(0.5, 10)).toBe(true);
    expect(gcSignificant(0.4, 10)).toBe(false);
    expect(gcSignificant(0.04, 0.5)).toBe(false);
    expect(gcSignificant(null, 10)).toBe(false);
  });
});

describe('the reports', () => {
  const cell = (tool: string, gc: number) =>
    measuredCell(`A/single_module_output/${tool}/sim`, [[10, 10, 10]], { gc_ms: [[gc, gc, gc]], gc_median_ms: gc });
  const text = renderTable(reportInput(resultsOf([cell('hooks', 0.01), cell('tl_record', 3.5)]), null), false);

  it('shows a significant collection cost beside the median, and nothing where it is negligible', () => {
    expect(text).toContain('10.00 ms +gc 3.50 ms');
    expect(text).not.toContain('+gc 0.01');
  });

  it('says it in the markdown page too, with how the collections were kept out of the samples', () => {
    const md = renderMarkdown(reportInput(resultsOf([cell('hooks', 0.01), cell('tl_record', 3.5)]), null));
    expect(md).toMatch(/10\.00 ms.* \+gc 3\.50 ms/);
    expect(md).not.toContain('+gc 0.01');
  });
});
