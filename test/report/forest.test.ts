// The forest plot's data (src/report/forest.ts): one row per paired tool cell in page order, with its marks,
// every other cell counted by why it is left out, and log-axis bounds that hold 1.0 and every interval.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { axisTicks, forestData, logBounds } from '../../src/report/forest.ts';
import { resolvePage, type ReportInput } from '../../src/report/page.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { pairedTinyJson } from './paired-tiny.ts';
import { TINY_SPEC, tinyResultsJson } from './tiny-results.ts';

const firstSection = (input: ReportInput) => resolvePage(input).sections[0];

describe("a section's forest plot", () => {
  it("has one row per paired tool cell, in the page's order, with the exactness and work marks of the table", async () => {
    const input = reportInput(fromJson(pairedTinyJson(), 'results.json'), await loadSpecForReport(TINY_SPEC));
    const { chart } = forestData(firstSection(input), 0, 'Tiny <ResNet>, CPU, ');
    expect(chart).toMatchObject({
      canvas: 'forest-0',
      labels: [
        ['forward hook · not compared', "one module's output"],
        ['nnsight 0.8.1 · mismatch · work: differs', "one module's output"],
      ],
      full: [
        ['forward hook', "Tiny <ResNet>, CPU, one module's output, n=2 processes"],
        ['nnsight 0.8.1', "Tiny <ResNet>, CPU, one module's output, n=2 processes"],
      ],
      ratio: [1.18, 480],
      interval: [
        [1.12, 1.25],
        [455, 512],
      ],
      flagged: [false, true],
    });
    expect(chart!.details[1]).toEqual([
      'x raw 480.00x (455.00-512.00)',
      'exactness: mismatch (max abs diff 0.5)',
      'work: differs (stops at the site)',
    ]);
    // Both rows belong to the same page row, so they share its colour, as in the time chart.
    expect(new Set(chart!.colors).size).toBe(1);
  });

  it('leaves out what has no paired ratio, and its caption counts them by reason', async () => {
    const input = reportInput(fromJson(pairedTinyJson(), 'results.json'), await loadSpecForReport(TINY_SPEC));
    const view = forestData(firstSection(input), 0, '');
    expect(view.leftOut).toEqual([
      { reason: 'failed', count: 1 },
      { reason: 'not run', count: 1 },
      { reason: 'not measured', count: 1 },
    ]);
    expect(view.caption).toBe('Left out of the plot (3 of 5 cells): failed (1); not run (1); not measured (1).');
  });

  it('leaves raw itself out, and draws a paired ratio from one process as a point without an interval', () => {
    const view = forestData(firstSection(reportInput(fromJson(pairedTinyJson(), 'results.json'), null)), 2, '');
    expect(view.chart!.labels.map((l) => l[1])).toEqual([
      'single_module_output',
      'single_module_output',
      'replacement_edit',
    ]);
    expect(view.chart!.interval).toEqual([[1.12, 1.25], [455, 512], null]);
    expect(view.chart!.details[2][0]).toBe('x raw 1.02x (1 process)');
    expect(view.caption).toBe('Left out of the plot (4 of 7 cells): raw, the baseline (1); failed (2); not run (1).');
  });

  it('has no plot where no cell is paired, and says why for each: unpaired, or no ratio to raw at all', () => {
    const json = tinyResultsJson();
    const groups = (json.resnet18 as { groups: Record<string, Record<string, unknown>> }).groups;
    groups['A/replacement_edit/tv_fx/resnet18'] = {
      ...groups['A/single_module_output/hooks/resnet18'],
      unpaired: 'raw does not implement replacement_edit',
    };
    const view = forestData(firstSection(reportInput(fromJson(json, 'results.json'), null)), 0, '');
    expect(view.chart).toBeNull();
    expect(view.leftOut).toEqual([
      { reason: 'raw, the baseline', count: 1 },
      { reason: 'unpaired, so without an interval', count: 2 },
      { reason: 'without a raw cell to be timed against', count: 1 },
      { reason: 'without a ratio to raw', count: 1 },
      { reason: 'failed', count: 2 },
    ]);
  });
});

describe('the log axis of a forest plot', () => {
  it('encloses 1.0 and every interval with a margin, ending on two significant figures', () => {
    expect(logBounds([1, 1.12, 1.25, 1.18])).toEqual({ min: 0.97, max: 1.3 });
    expect(logBounds([1, 1.18, 455, 512, 480])).toEqual({ min: 0.53, max: 960 });
    // Every tool faster than the plain forward: 1.0 is still on the axis, at its right end.
    expect(logBounds([1, 0.5, 0.6, 0.8])).toEqual({ min: 0.46, max: 1.1 });
  });

  it('keeps a margin of at least 2% on a ratio that is 1.0 to the last digit', () => {
    const { min, max } = logBounds([1, 1, 1]);
    expect(min).toBeLessThan(1 / 1.02 + 1e-9);
    expect(max).toBeGreaterThanOrEqual(1.02);
  });

  it('labels 1, 2 and 5 times each power of ten across a decade or more, and finer steps, never more than 7, on a narrow axis', () => {
    expect(axisTicks(0.53, 960)).toEqual([1, 2, 5, 10, 20, 50, 100, 200, 500]);
    expect(axisTicks(0.97, 1.3)).toEqual([1, 1.05, 1.1, 1.15, 1.2, 1.25, 1.3]);
    expect(axisTicks(0.96, 1.5)).toEqual([1, 1.1, 1.2, 1.3, 1.4, 1.5]);
    expect(axisTicks(0.46, 1.1)).toEqual([0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1]);
    expect(axisTicks(0.98, 1.03)).toEqual([0.98, 0.99, 1, 1.01, 1.02, 1.03]);
  });
});
