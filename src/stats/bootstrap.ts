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
 * with replacement, then for each drawn process the median of as many samples as it has, drawn with
 * replacement: the between-process variation, which dominates timings, enters the interval. Sides need
 * non-empty processes. The before side is drawn first in every resample, so one seed gives one interval.
 *
 * The cost is resamples x processes, whatever the number of samples: a process's resampled median is
 * drawn directly from its sorted samples (`resampledMedian`), where drawing and sorting the samples of
 * every resample cost minutes on 3 processes of 100,000 samples a side.
 */
export function bootstrapRatio(
  before: readonly (readonly number[])[],
  after: readonly (readonly number[])[],
  opts: BootstrapOptions,
): RatioInterval {
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
  if (processes.length === 0 || processes.some((p) => p.length === 0))
    throw new RangeError('bootstrapRatio: every side needs non-empty processes');
  const data = processes.map((p) => Float64Array.from(p).sort());
  const medians = new Float64Array(data.length);
  return () => {
    for (let j = 0; j < data.length; j++)
      medians[j] = resampledMedian(data[Math.floor(random() * data.length)], random);
    return medianInPlace(medians);
  };
}

/**
 * The median of n values drawn with replacement from `sorted` (n its length), drawn in constant time
 * with the same distribution. Drawing indexes floor(n U) from uniforms U, the k-th smallest index is
 * floor(n U(k)), U(k) the k-th order statistic of n uniforms, which is Beta(k, n - k + 1); the next one
 * up is U(k) + (1 - U(k)) Beta(1, n - k). So the median is one or two order statistics away.
 */
export function resampledMedian(sorted: Float64Array, random: () => number): number {
  const n = sorted.length;
  const at = (u: number) => sorted[Math.min(n - 1, Math.floor(n * u))];
  if (n % 2 === 1) return at(beta((n + 1) / 2, (n + 1) / 2, random));
  const k = n / 2;
  const low = beta(k, n - k + 1, random);
  const high = low + (1 - low) * (1 - (1 - random()) ** (1 / (n - k)));
  return (at(low) + at(high)) / 2;
}

/** A Beta(a, b) draw for a, b >= 1: X / (X + Y) with X, Y gamma draws. */
function beta(a: number, b: number, random: () => number): number {
  const x = gamma(a, random);
  return x / (x + gamma(b, random));
}

/** A Gamma(shape, 1) draw for shape >= 1 (Marsaglia and Tsang, ACM TOMS 26(3), 2000). */
function gamma(shape: number, random: () => number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(random);
    const v = (1 + c * x) ** 3;
    if (v <= 0) continue;
    const u = 1 - random();
    if (u < 1 - 0.0331 * x ** 4 || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** A standard normal draw (Box and Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** The median of `a` (reordered in place): one or two selections, never a sort. */
function medianInPlace(a: Float64Array): number {
  const h = a.length >> 1;
  const upper = select(a, h);
  if (a.length % 2 === 1) return upper;
  // After selecting h, everything before it is <= a[h]: the lower middle is their largest.
  let lower = a[0];
  for (let i = 1; i < h; i++) if (a[i] > lower) lower = a[i];
  return (lower + upper) / 2;
}

/** The k-th smallest value of `a` (Hoare's selection), partially reordering `a`. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k];
}
