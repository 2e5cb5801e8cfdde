// Hierarchical bootstrap of the after/before ratio of medians: resample processes, then samples.
import { quantileSorted } from 'simple-statistics';

/** A confidence interval of the after/before ratio. */
export interface RatioInterval {
  low: number;
  high: number;
}

/** Options of the bootstrap: how many resamples, the confidence level, the random source. */
export interface BootstrapOptions {
  resamples: number;
  confidence: number;
  random: () => number;
}

/**
 * Percentile interval of median(after) / median(before), where a side's median is the median of its
 * per-process medians (as in results files). Each resample draws as many processes as the side has,
 * with replacement, then for each drawn process as many samples as it has, with replacement: the
 * between-process variation, which dominates timings, enters the interval. Sides need non-empty
 * processes. The before side is drawn first in every resample, so one seed gives one interval.
 */
export function bootstrapRatio(before: readonly (readonly number[])[], after: readonly (readonly number[])[], opts: BootstrapOptions): RatioInterval {
  const b = resampler(before, opts.random);
  const a = resampler(after, opts.random);
  const ratios = new Float64Array(opts.resamples);
  for (let i = 0; i < opts.resamples; i++) {
    const mb = b();
    ratios[i] = a() / mb;
  }
  ratios.sort();
  const tail = (1 - opts.confidence) / 2;
  const sorted = ratios as unknown as number[];
  return { low: quantileSorted(sorted, tail), high: quantileSorted(sorted, 1 - tail) };
}

/** A function that draws one hierarchical resample of a side and returns its median of medians. */
function resampler(processes: readonly (readonly number[])[], random: () => number): () => number {
  if (processes.length === 0 || processes.some((p) => p.length === 0)) throw new RangeError('bootstrapRatio: every side needs non-empty processes');
  const data = processes.map((p) => Float64Array.from(p));
  const buffers = new Map(data.map((p) => [p.length, new Float64Array(p.length)]));
  const medians = new Float64Array(data.length);
  return () => {
    for (let j = 0; j < data.length; j++) {
      const proc = data[Math.floor(random() * data.length)];
      const buf = buffers.get(proc.length)!;
      for (let k = 0; k < proc.length; k++) buf[k] = proc[Math.floor(random() * proc.length)];
      sortSmall(buf);
      medians[j] = middle(buf);
    }
    sortSmall(medians);
    return middle(medians);
  };
}

/** Insertion sort in place: several times faster than TypedArray#sort on the short arrays drawn here. */
function sortSmall(a: Float64Array): void {
  if (a.length > 64) {
    a.sort();
    return;
  }
  for (let i = 1; i < a.length; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

/** The median of a sorted array (the mean of the two middle values when the length is even). */
function middle(a: Float64Array): number {
  const h = a.length >> 1;
  return a.length % 2 === 1 ? a[h] : (a[h - 1] + a[h]) / 2;
}
