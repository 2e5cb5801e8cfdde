// The one "x raw" figure (src/results/published.ts): the paired ratio, with the cell's import tax where the
// tool's is shown; otherwise the ratio of medians, marked unpaired with the reason.
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/results/model.ts';
import { pairedFigures, pairedPools, pairedProcess, type PairedRecord } from '../../src/results/paired.ts';
import { cellIndex, formatPublished, publishedRatio, ratioTo, toolTaxes, withToolTax } from '../../src/results/published.ts';
import { measuredCell } from '../compare/simulate.ts';

/** A paired cell whose processes have paired ratio `ratio` and import tax `taxes[i]` (with a little scatter). */
function pairedCell(id: string, ratio: number, taxes: number[]): CellResult {
  const samples = taxes.map((_, i) => [10, 10.1, 9.9].map((b) => b * ratio * (1 + i * 0.001)));
  const processes = taxes.map((t, i) => {
    const p: PairedRecord = { baseline: 'raw', seed: i, unpaired: null, baseline_ms: [10, 10.1, 9.9], tool_first: [true, false, true], before: { baseline_ms: [10 / t, 10 / t], baseline_gc_ms: [], stopped_by: 'samples' } };
    return pairedProcess(i, samples[i], p)!;
  });
  const f = pairedFigures(processes, 'raw', pairedPools([processes]))!;
  return { ...measuredCell(id, samples), paired: f.paired, import_tax: f.import_tax };
}

describe('the published ratio', () => {
  it("is a tool's paired ratio when its import tax is not shown to be above 1", () => {
    const [c] = withToolTax([pairedCell('A/c/nnsight/s', 1.2, [1.01, 0.99, 1.0])]);
    expect(c.paired!.published).toEqual({ ratio: c.paired!.ratio, ci95: c.paired!.ci95, tax: null });
    expect(publishedRatio(c, cellIndex([c]))).toMatchObject({ ratio: c.paired!.ratio, paired: true, why: null });
  });

  it('includes the cell\'s own tax when the tool\'s is above 1 at 95%, so a tool that slows torch never looks as cheap as its paired ratio', () => {
    const cells = withToolTax([pairedCell('A/a/taxed/s', 1.0, [1.25, 1.26, 1.24]), pairedCell('A/b/taxed/s', 1.0, [1.05, 1.06, 1.04])]);
    expect(toolTaxes(cells)[0].low).toBeGreaterThan(1);
    for (const c of cells) {
      expect(c.paired!.published.tax).toBeCloseTo(c.import_tax!.ratio, 12);
      expect(c.paired!.published.ratio).toBeCloseTo(c.paired!.ratio * c.import_tax!.ratio, 12);
      // Both intervals' widths, combined on the log scale.
      const half = (lo: number, r: number) => Math.log(r / lo);
      expect(half(c.paired!.published.ci95[0], c.paired!.published.ratio)).toBeCloseTo(Math.hypot(half(c.paired!.ci95[0], c.paired!.ratio), half(c.import_tax!.ci95[0], c.import_tax!.ratio)), 10);
    }
    expect(cells[0].paired!.published.ratio).toBeGreaterThan(1.2);
  });

  it('falls back on the ratio of medians to the raw cell, marked unpaired with the reason, and is absent for raw itself', () => {
    const raw = measuredCell('A/c/raw/s', [[10], [10.2], [9.8]]);
    const tool = { ...measuredCell('A/c/hooks/s', [[12], [12], [12]]), unpaired: 'pairing is off for subject s (subjects.s.pairing)' };
    const cells = cellIndex([raw, tool]);
    expect(publishedRatio(tool, cells)).toEqual({ ratio: 12 / 10, low: 12 / 10.2, high: 12 / 9.8, paired: false, why: 'pairing is off for subject s (subjects.s.pairing)' });
    expect(publishedRatio(raw, cells)).toBeNull();
    expect(publishedRatio({ ...tool, unpaired: undefined }, cells)!.why).toBe('no paired timing in this results file');
    expect(formatPublished(publishedRatio(tool, cells))).toBe('1.20x unpaired');
  });

  it('takes a ratio to the reference as the ratio of two paired ratios when both paired, else of medians', () => {
    const [a, b] = withToolTax([pairedCell('A/c/nnsight/s', 1.3, [1, 1, 1]), pairedCell('A/c/hooks/s', 1.1, [1, 1, 1])]);
    const cells = cellIndex([a, b]);
    expect(ratioTo(a, b, cells)).toEqual({ ratio: a.paired!.published.ratio / b.paired!.published.ratio, paired: true });
    const plainA = { ...a, paired: null };
    expect(ratioTo(plainA, b, cellIndex([plainA, b]))).toEqual({ ratio: a.median_ms! / b.median_ms!, paired: false });
  });

  it('reads as the ratio and its interval, or says one process gives none', () => {
    expect(formatPublished({ ratio: 1.234, low: 1.2, high: 1.27, paired: true, why: null })).toBe('1.23x (1.20-1.27)');
    expect(formatPublished({ ratio: 1.234, low: 0, high: Infinity, paired: true, why: null })).toBe('1.23x (1 process)');
    expect(formatPublished(null)).toBe('');
  });
});
