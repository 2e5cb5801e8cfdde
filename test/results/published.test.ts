// The one "x raw" figure (src/results/published.ts): the paired ratio, its interval widened by the
// run-to-run component; otherwise the ratio of medians, marked unpaired with the reason.
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/results/model.ts';
import { pairedFigures, pairedPools, pairedProcess, type PairedRecord } from '../../src/results/paired.ts';
import { cellIndex, formatPublished, publishedRatio, ratioTo, withPublished } from '../../src/results/published.ts';
import { defaultModel } from '../../src/stats/between-run.ts';
import { measuredCell } from '../compare/simulate.ts';

/** A paired cell whose processes have paired ratio `ratio` and import tax `taxes[i]` (with a little scatter). */
function pairedCell(id: string, ratio: number, taxes: number[]): CellResult {
  const samples = taxes.map((_, i) => [10, 10.1, 9.9].map((b) => b * ratio * (1 + i * 0.001)));
  const processes = taxes.map((t, i) => {
    const p: PairedRecord = {
      baseline: 'raw',
      seed: i,
      unpaired: null,
      baseline_ms: [10, 10.1, 9.9],
      tool_first: [true, false, true],
      before: { baseline_ms: [10 / t, 10 / t], baseline_gc_ms: [], stopped_by: 'samples' },
    };
    return pairedProcess(i, samples[i], p)!;
  });
  const f = pairedFigures(processes, 'raw', pairedPools([processes]))!;
  return { ...measuredCell(id, samples), paired: f.paired, import_tax: f.import_tax };
}

describe('the published ratio', () => {
  const model = { ...defaultModel(), tau0: 0.01, sigma: 0.04, df: 8 };

  it("is the cell's paired ratio, in every run: nothing is multiplied in, whatever the tool's import tax", () => {
    const [thin, taxed] = withPublished(
      [pairedCell('A/c/nnsight/s', 1.2, [1.01, 0.99, 1.0]), pairedCell('A/a/taxed/s', 1.0, [1.25, 1.26, 1.24])],
      model,
    );
    for (const c of [thin, taxed]) {
      expect(c.paired!.published.ratio).toBe(c.paired!.ratio);
      expect(c.paired!.published.tax).toBeNull();
    }
    expect(publishedRatio(thin, cellIndex([thin]))).toMatchObject({
      ratio: thin.paired!.ratio,
      paired: true,
      why: null,
    });
  });

  it("widens the cell's own interval by the run-to-run component, more for a tool whose time is mostly its own", () => {
    const [thin, heavy] = withPublished(
      [pairedCell('A/c/hooks/s', 1.0, [1, 1, 1]), pairedCell('A/c/torchlens/s', 9.0, [1, 1, 1])],
      model,
    );
    const half = (c: CellResult, ci: [number, number]) => Math.log(ci[1] / c.paired!.ratio);
    // hooks (ratio 1): tau is tau0 alone; torchlens (ratio 9): tau0 and sigma x (1 - 1/9).
    expect(thin.paired!.published.between_run).toBeCloseTo(0.01, 6);
    expect(heavy.paired!.published.between_run).toBeCloseTo(Math.hypot(0.01, 0.04 * (1 - 1 / heavy.paired!.ratio)), 12);
    for (const c of [thin, heavy]) expect(half(c, c.paired!.published.ci95)).toBeGreaterThan(half(c, c.paired!.ci95));
    expect(half(heavy, heavy.paired!.published.ci95)).toBeGreaterThan(half(thin, thin.paired!.published.ci95));
  });

  it('keeps the in-run interval where no run-to-run component is asked for', () => {
    const [c] = withPublished([pairedCell('A/c/hooks/s', 1.1, [1, 1, 1])], null);
    // The paired interval itself, to the last bit: one rebuilt from it through a log and an exp may come out a
    // unit in the last place narrower, and a published interval is never narrower than the paired one.
    expect(c.paired!.published.ci95).toEqual(c.paired!.ci95);
    expect(c.paired!.published.between_run).toBe(0);
  });

  it('encloses the paired interval however small the component, to the last bit', () => {
    const tiny = { ...defaultModel(), tau0: 1e-12, sigma: 0, df: 8 };
    for (const ratio of [0.7, 1.0, 1.1, 3.3, 9.7]) {
      const [c] = withPublished([pairedCell('A/c/hooks/s', ratio, [1, 1, 1])], tiny);
      expect(c.paired!.published.ci95[0]).toBeLessThanOrEqual(c.paired!.ci95[0]);
      expect(c.paired!.published.ci95[1]).toBeGreaterThanOrEqual(c.paired!.ci95[1]);
    }
  });

  it('falls back on the ratio of medians to the raw cell, marked unpaired with the reason, and is absent for raw itself', () => {
    const raw = measuredCell('A/c/raw/s', [[10], [10.2], [9.8]]);
    const tool = {
      ...measuredCell('A/c/hooks/s', [[12], [12], [12]]),
      unpaired: 'pairing is off for subject s (subjects.s.pairing)',
    };
    const cells = cellIndex([raw, tool]);
    expect(publishedRatio(tool, cells)).toEqual({
      ratio: 12 / 10,
      low: 12 / 10.2,
      high: 12 / 9.8,
      paired: false,
      why: 'pairing is off for subject s (subjects.s.pairing)',
    });
    expect(publishedRatio(raw, cells)).toBeNull();
    expect(publishedRatio({ ...tool, unpaired: undefined }, cells)!.why).toBe('no paired timing in this results file');
    expect(formatPublished(publishedRatio(tool, cells))).toBe('1.20x unpaired');
  });

  it('takes a ratio to the reference as the ratio of two paired ratios when both paired, else of medians', () => {
    const [a, b] = withPublished(
      [pairedCell('A/c/nnsight/s', 1.3, [1, 1, 1]), pairedCell('A/c/hooks/s', 1.1, [1, 1, 1])],
      null,
    );
    const cells = cellIndex([a, b]);
    expect(ratioTo(a, b, cells)).toEqual({
      ratio: a.paired!.published.ratio / b.paired!.published.ratio,
      paired: true,
    });
    const plainA = { ...a, paired: null };
    expect(ratioTo(plainA, b, cellIndex([plainA, b]))).toEqual({ ratio: a.median_ms! / b.median_ms!, paired: false });
  });

  it('reads as the ratio and its interval, or says one process gives none', () => {
    expect(formatPublished({ ratio: 1.234, low: 1.2, high: 1.27, paired: true, why: null })).toBe('1.23x (1.20-1.27)');
    expect(formatPublished({ ratio: 1.234, low: 0, high: Infinity, paired: true, why: null })).toBe(
      '1.23x (1 process)',
    );
    expect(formatPublished(null)).toBe('');
  });
});
