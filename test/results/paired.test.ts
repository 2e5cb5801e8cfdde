// Paired figures (src/results/paired.ts): the per-process estimator, the import tax, the published ratio,
// and the cell's interval over processes moderated towards the run's pool.
import jStat from 'jstat';
import { describe, expect, it } from 'vitest';
import {
  pairedFigures,
  pairedPools,
  pairedProcess,
  pairedSamples,
  type PairedRecord,
} from '../../src/results/paired.ts';
import { logInterval, pairEstimate, pairRatios } from '../../src/stats/paired.ts';
import { pooledSpread } from '../../src/stats/spread.ts';
import { fromJson } from '../../src/results/load.ts';
import { toJson } from '../../src/results/write.ts';
import { measuredCell, resultsOf } from '../compare/simulate.ts';

/** A process's `paired` record: the baseline after the import, and before it. */
function record(after: number[], before: number[], unpaired: string | null = null): PairedRecord {
  return {
    baseline: 'raw',
    seed: 7,
    unpaired,
    baseline_ms: after,
    baseline_gc_ms: after.map(() => 0),
    tool_first: after.map((_, i) => i % 2 === 0),
    before: { baseline_ms: before, baseline_gc_ms: before.map(() => 0), stopped_by: 'samples' },
  };
}

describe('the per-process paired ratio', () => {
  it('is the Hodges-Lehmann estimate of the per-pair log ratios, each pair one tool call over the baseline call next to it', () => {
    expect(pairRatios([12, 22, 33], [10, 20, 30])).toEqual([1.2, 1.1, 1.1]);
    // Walsh averages of logs (a, b, b): a, (a+b)/2 twice, b three times; the median of the six is (b + (a+b)/2) / 2.
    const [a, b] = [Math.log(1.2), Math.log(1.1)];
    expect(pairEstimate([12, 22, 33], [10, 20, 30])).toBeCloseTo(Math.exp((b + (a + b) / 2) / 2), 12);
    // logs 0, 0.1, 0.2, 1 (one slow call): the ten Walsh averages' median is (0.15 + 0.2) / 2, where the mean would be 0.325.
    expect(Math.log(pairEstimate([1, Math.exp(0.1), Math.exp(0.2), Math.E], [1, 1, 1, 1])!)).toBeCloseTo(0.175, 12);
  });

  it('cancels what the two calls of a pair share: a process twice as slow in its second half gives the same ratio', () => {
    const base = [10, 10, 20, 20];
    expect(
      pairEstimate(
        base.map((b) => b * 1.3),
        base,
      ),
    ).toBeCloseTo(1.3, 12);
  });

  it('drops pairs beyond the shorter side and pairs that cannot be a ratio', () => {
    expect(pairRatios([5, 6, 7], [5, 0])).toEqual([1]);
    expect(pairEstimate([], [])).toBeNull();
  });
});

describe('a paired process', () => {
  it('has its paired ratio and its import tax (baseline after / before, medians)', () => {
    const p = pairedProcess(0, [24, 24, 25.2], record([20, 20, 21], [16, 16, 17]))!;
    expect(p.ratio).toBeCloseTo(1.2, 12);
    expect(p.tax).toBeCloseTo(20 / 16, 12);
    expect(p.pairs).toBe(3);
    expect(p.before_ms).toEqual([16, 16, 17]);
  });

  it('is null when the process did not pair, or could not (its copies differed), or lacks a side', () => {
    expect(pairedProcess(0, [1, 2], null)).toBeNull();
    expect(
      pairedProcess(0, [1, 2], record([1, 2], [1], 'the model built twice from seed 0 is not the same')),
    ).toBeNull();
    expect(pairedProcess(0, [1, 2], { baseline: 'raw', seed: 1, unpaired: null })).toBeNull();
  });
});

describe('the interval over processes', () => {
  it("is Student's t on the log values, as a ratio: exp(mean +- t(0.975, n-1) sd / sqrt n)", () => {
    const values = [1.01, 1.02, 1.03];
    const logs = values.map(Math.log);
    const mean = logs.reduce((a, b) => a + b) / 3;
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / 2);
    const h = (jStat.studentt.inv(0.975, 2) * sd) / Math.sqrt(3);
    const ci = logInterval(values, null)!;
    expect(ci.ratio).toBeCloseTo(Math.exp(mean), 12);
    expect(ci.ci95[0]).toBeCloseTo(Math.exp(mean - h), 12);
    expect(ci.ci95[1]).toBeCloseTo(Math.exp(mean + h), 12);
  });

  it("moderates a cell's spread towards the run's pool, so three processes that agree by luck are not called exact", () => {
    const pool = pooledSpread(Array.from({ length: 20 }, () => [1, 1.02, 0.99]))!;
    const lucky = logInterval([1.1, 1.1, 1.1], pool)!;
    expect(lucky.ci95[1] - lucky.ci95[0]).toBeGreaterThan(0);
    const own = logInterval([1.1, 1.1, 1.1], null)!;
    expect(own.ci95).toEqual([expect.closeTo(1.1, 12), expect.closeTo(1.1, 12)]);
    // s^2 = d0 * pool / (d0 + n - 1) on d0 + n - 1 df, d0 the degrees of freedom the pool earned.
    const df = pool.prior_df + 2;
    const h = jStat.studentt.inv(0.975, df) * Math.sqrt((pool.prior_df * pool.variance) / df / 3);
    expect(lucky.ci95[1]).toBeCloseTo(1.1 * Math.exp(h), 10);
  });

  it('is unbounded above with one process and no pool: one process says nothing about the next', () => {
    expect(logInterval([1.2], null)).toEqual({ ratio: expect.closeTo(1.2, 12), ci95: [0, Infinity] });
  });
});

describe("a cell's paired figures", () => {
  const procs = [0, 1, 2].map(
    (i) => pairedProcess(i, [11 + i * 0.01, 11, 11.02], record([10, 10, 10.01], [9.9, 10, 10]))!,
  );

  it('give the paired ratio and the import tax, each with its interval, and the pair count', () => {
    const f = pairedFigures(procs, 'raw', pairedPools([procs]))!;
    expect(f.paired.baseline).toBe('raw');
    expect(f.paired.pairs).toBe(9);
    expect(f.paired.ratio).toBeGreaterThan(1.09);
    expect(f.import_tax.ratio).toBeCloseTo((10 / 10) * 1, 1);
    for (const ci of [f.paired, f.import_tax]) expect(ci.ci95[0]).toBeLessThanOrEqual(ci.ratio);
    // Until the run-to-run component is added (withPublished), the published ratio is the paired one.
    expect(f.paired.published).toEqual({ ratio: f.paired.ratio, ci95: f.paired.ci95, tax: null, df: f.paired.df });
  });

  it('give compare the pairs of each process as relative samples, whose process medians are the paired ratios', () => {
    const f = pairedFigures(procs, 'raw', pairedPools([procs]))!;
    const samples = pairedSamples({
      samples_ms: [
        [11, 11, 11.02],
        [11.01, 11, 11.02],
        [11.02, 11, 11.02],
      ],
      paired: f.paired,
    })!;
    expect(samples).toHaveLength(3);
    expect(samples[0]).toEqual(pairRatios([11, 11, 11.02], [10, 10, 10.01]));
    expect(pairedSamples({ samples_ms: [[1]], paired: null })).toBeNull();
  });
});

describe('paired fields of a results file, read back', () => {
  const procs = [0, 1, 2].map((i) => pairedProcess(i, [11, 11.1, 11.2], record([10, 10, 10.1], [9.9, 10, 10]))!);
  const figures = pairedFigures(procs, 'raw', pairedPools([procs]))!;
  const cell = {
    ...measuredCell('A/single_module_output/nnsight/sim', [
      [11, 11.1, 11.2],
      [11, 11.1, 11.2],
      [11, 11.1, 11.2],
    ]),
    paired: figures.paired,
    import_tax: figures.import_tax,
    unpaired: null,
  };
  const file = () => JSON.parse(JSON.stringify(toJson(resultsOf([cell]))));
  const groups = (f: Record<string, any>) => f.sim.groups['A/single_module_output/nnsight/sim'];

  it('come back as they were written', () => {
    const back = fromJson(file()).cells[0];
    expect(back.paired).toEqual(figures.paired);
    expect(back.import_tax).toEqual(figures.import_tax);
    expect(back.unpaired).toBeNull();
  });

  it('load unpaired when absent, as in older files and the seed', () => {
    const f = file();
    for (const k of ['paired', 'import_tax', 'unpaired']) delete groups(f)[k];
    expect(fromJson(f).cells[0].paired).toBeUndefined();
  });

  it('are refused, naming the field, when a file from elsewhere holds something else', () => {
    const hostile: [string, (g: any) => void, RegExp][] = [
      [
        'a ratio outside its interval',
        (g) => {
          g.paired.ratio = 9;
        },
        /paired: expected a ratio inside its ci95/,
      ],
      [
        'a negative interval',
        (g) => {
          g.paired.ci95 = [-1, 2];
        },
        /paired\.ci95\[0\]: expected a positive finite ratio/,
      ],
      [
        'a text ratio',
        (g) => {
          g.import_tax.ratio = '1.2';
        },
        /import_tax\.ratio: expected a positive finite ratio/,
      ],
      [
        'a negative tax applied',
        (g) => {
          g.paired.published.tax = -2;
        },
        /published\.tax: expected a positive finite ratio/,
      ],
      [
        'samples that are not numbers',
        (g) => {
          g.paired.processes[0].baseline_ms = ['x'];
        },
        /processes\[0\]\.baseline_ms\[0\]: expected a time in milliseconds/,
      ],
      [
        'orders that are not true or false',
        (g) => {
          g.paired.processes[1].tool_first = [1];
        },
        /processes\[1\]\.tool_first\[0\]: expected true or false/,
      ],
      [
        'an unpaired reason that is not text',
        (g) => {
          g.unpaired = { why: 1 };
        },
        /unpaired: expected text or null/,
      ],
    ];
    for (const [name, spoil, message] of hostile) {
      const f = file();
      spoil(groups(f));
      expect(() => fromJson(f, 'hostile.json'), name).toThrow(message);
    }
  });
});
