// The noise of paired measurement over the campaign's runs (bench/pairing.sh): the paired noise model of the
// simulator and the simulator on it, the order effect within pairs, and how candidate estimators of a
// process's paired ratio vary between processes.
import jStat from 'jstat';
import { mean, median } from 'simple-statistics';
import { pairedLabelRates } from '../test/compare/across-runs.simulation.ts';
import { CAMPAIGN, type PairedNoise, type RunModel } from '../test/compare/simulate-runs.ts';
import type { Run } from './pairing-figures.ts';

/** Tool-first against baseline-first pairs over the runs' paired processes: mean difference of log ratios and its standard error. */
export function orderEffect(runs: Run[]) {
  const diffs: number[] = [];
  for (const r of runs)
    for (const c of r.results.cells) {
      for (const p of c.paired?.processes ?? []) {
        const tool = c.samples_ms?.[p.index] ?? [];
        const logs = p.baseline_ms.map((b, j) => Math.log(tool[j] / b));
        const first = logs.filter((_, j) => p.tool_first[j]);
        const second = logs.filter((_, j) => p.tool_first[j] === false);
        if (first.length && second.length) diffs.push(mean(first) - mean(second));
      }
    }
  const sd = Math.sqrt(diffs.reduce((s, x) => s + (x - mean(diffs)) ** 2, 0) / (diffs.length - 1));
  const se = sd / Math.sqrt(diffs.length);
  const t = mean(diffs) / se;
  return {
    processes: diffs.length,
    tool_first_minus_baseline_first: mean(diffs),
    se,
    p: 2 * (1 - jStat.studentt.cdf(Math.abs(t), diffs.length - 1)),
  };
}
/**
 * The paired noise model of the simulator (test/compare/simulate-runs.ts), from the runs' paired processes
 * of the tools `tools` accepts: tools differ (a Python-heavy tool's own speed varies between processes).
 */
export function pairedNoise(runs: Run[], tools: (tool: string) => boolean = () => true): PairedNoise {
  const pairSd: number[] = [];
  const cellVar: { v: number; df: number }[] = [];
  const taxVar: { v: number; df: number }[] = [];
  const n: number[] = [];
  for (const r of runs)
    for (const c of r.results.cells.filter((x) => tools(x.tool))) {
      const ps = c.paired?.processes ?? [];
      for (const p of ps) {
        const logs = p.baseline_ms
          .map((b, j) => Math.log((c.samples_ms?.[p.index]?.[j] ?? NaN) / b))
          .filter(Number.isFinite);
        if (logs.length >= 3) {
          const m = median(logs);
          pairSd.push(1.4826 * median(logs.map((x) => Math.abs(x - m))));
          n.push(logs.length);
        }
      }
      if (ps.length >= 2) {
        const vr = (xs: number[]) => xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1);
        cellVar.push({ v: vr(ps.map((p) => Math.log(p.ratio))), df: ps.length - 1 });
        taxVar.push({ v: vr(ps.map((p) => Math.log(p.tax))), df: ps.length - 1 });
      }
    }
  const pooled = (xs: { v: number; df: number }[]) =>
    xs.reduce((s, x) => s + x.v * x.df, 0) / xs.reduce((s, x) => s + x.df, 0);
  const pair = median(pairSd);
  // Hodges-Lehmann's variance is about pi/3 of the mean's for normal pairs: what the pairs alone explain.
  const process = Math.sqrt(Math.max(0, pooled(cellVar) - ((Math.PI / 3) * pair ** 2) / median(n)));
  return { pair, process, tax: Math.sqrt(pooled(taxVar)) };
}
/** The simulator on the paired noise model: A/A and a 5% slowdown of one cell, at resnet18_cpu's protocol. */
export function simulation(noise: PairedNoise, pairs = 300) {
  const model: RunModel = { ...CAMPAIGN, samples: 10, paired: noise };
  const aa = pairedLabelRates(pairs, 1, model, 9100);
  const slow = pairedLabelRates(pairs, 1.05, model, 9200);
  return {
    model: { ...model },
    pairs,
    aa_labelled: (aa.faster + aa.slower) / pairs,
    slowed5_labelled_slower: slow.slower / pairs,
  };
}

/** Candidate per-process estimators of a paired ratio, each over the log ratios of a process's pairs. */
const ESTIMATORS: Record<string, (logs: number[]) => number> = {
  'median of the pair ratios': (l) => median(l),
  'mean of the log ratios': (l) => mean(l),
  'Hodges-Lehmann (chosen)': (l) => {
    const w: number[] = [];
    for (let i = 0; i < l.length; i++) for (let j = i; j < l.length; j++) w.push((l[i] + l[j]) / 2);
    return median(w);
  },
  'ratio of the two medians': () => NaN,
};

/**
 * How much each candidate estimator of a process's paired ratio varies between processes of one cell (the
 * sd of its log over the runs' paired cells, pooled on their degrees of freedom): the estimator whose
 * processes agree best makes the narrowest honest interval (docs/protocol.md, "The estimator").
 */
export function estimators(runs: Run[]) {
  const out: Record<string, number> = {};
  for (const [name, f] of Object.entries(ESTIMATORS)) {
    let ss = 0;
    let df = 0;
    for (const r of runs)
      for (const c of r.results.cells) {
        const ps = c.paired?.processes ?? [];
        if (ps.length < 2) continue;
        const values = ps.map((p) => {
          const tool = c.samples_ms?.[p.index] ?? [];
          if (name.startsWith('ratio of')) return Math.log(median(tool) / median(p.baseline_ms));
          return f(p.baseline_ms.map((b, j) => Math.log(tool[j] / b)));
        });
        ss += values.reduce((a, x) => a + (x - mean(values)) ** 2, 0);
        df += values.length - 1;
      }
    out[name] = Math.sqrt(ss / df);
  }
  return out;
}
