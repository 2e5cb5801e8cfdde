// A cell's `paired` record as benchgrid writes it, for tests that pair a fixture's cell against raw: one
// process of two pairs, the tool first in the first. Its baselines are drawn from the tool's own first two
// samples (divided by the ratio, then by the tax for the times before the tool was imported), so that the
// ratio and tax are the ones the loader recomputes from them (src/results/consistency.ts).

export interface PairedOptions {
  /** The paired ratio, which the published figure repeats. */
  ratio: number;
  /** The run's own interval about the ratio. */
  ci95: [number, number];
  /** The published interval, which may be wider than the run's own. */
  published: [number, number];
  /** The import tax of the one process (1: none). */
  tax?: number;
  seed?: number;
}

/** The `paired` field of a cell whose first process sampled `toolSamples`. */
export function pairedRecord(toolSamples: number[], o: PairedOptions): Record<string, unknown> {
  const tax = o.tax ?? 1;
  const baseline = toolSamples.slice(0, 2).map((x) => x / o.ratio);
  return {
    ratio: o.ratio,
    ci95: o.ci95,
    pairs: 2,
    baseline: 'raw',
    published: { ratio: o.ratio, ci95: o.published, tax: null },
    processes: [
      {
        index: 0,
        ratio: o.ratio,
        tax,
        pairs: 2,
        seed: o.seed ?? 1,
        baseline_ms: baseline,
        tool_first: [true, false],
        before_ms: baseline.map((x) => x / tax),
      },
    ],
  };
}
