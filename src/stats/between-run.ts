// The run-to-run component of a published interval (docs/protocol.md, "Between runs"). A cell's interval
// over its processes says how well this run knows the cell; the next run on the same machine differs by
// more: the machine's state moves at time scales longer than a run, and a Python-heavy tool's work slows
// differently from the plain forward's when it does. So the published interval adds, to the cell's own
// variance, a between-run variance tau^2 that grows with how much of the tool's time is work of another
// kind than the baseline's:
//
//   tau_c^2 = tau0^2 + (sigma * w_c)^2,   w_c = 1 - min(r_c, 1 / r_c)
//
// where r_c is the cell's paired ratio: w is 0 for a tool that does the baseline's work and nothing else
// (hooks: its ratio cannot move when the machine's speed does), and nears 1 for one whose time is mostly
// its own (torchlens at 9x: 1 - 1/9). tau0 is what every ratio moves by. Both are estimated from this
// spec's earlier runs on this machine where there are any, shrunk towards the default measured by the
// coverage campaign (docs/performance.md), which is used alone otherwise. Pure.

/**
 * The run-to-run component of a published interval (docs/protocol.md, "Between runs"): the variance, on the
 * log scale, by which the same cell's ratio moves from one run to the next beyond what its own processes
 * show, the degrees of freedom it is known on, and where it came from.
 */
export interface BetweenRun {
  variance: number;
  df: number;
  /** `earlier runs`: this spec's earlier runs on this machine; `default`: none to learn from (the campaign's figure). */
  source: 'earlier runs' | 'default' | 'none';
  /** The runs (this one included) and cells the estimate is made from; 0 for the default. */
  runs: number;
  cells: number;
}

/** One cell of a run as the estimate reads it: the log of its paired ratio and that log's variance (over its processes). */
export interface RunCell {
  mean: number;
  variance: number;
}

/** A comparable run (same spec, machine, tool versions; src/results/earlier.ts), by cell id. */
export type RunCells = Map<string, RunCell>;

/**
 * The default, for a first run with nothing to learn from, weighing as PRIOR_DF degrees of freedom when
 * earlier runs are there to update it. The coverage campaign of docs/performance.md ("Run to run":
 * resnet18_cpu's two rows, six runs on the project's 2-core machine, two of them loaded) fitted tau0 0.12%
 * and sigma 0.96%; one machine's six runs are a thin basis for everyone's first run, so the default is
 * about twice and three times that (a first interval that is too wide costs width; one that is too
 * narrow misleads).
 */
export const DEFAULT_TAU0 = 0.003;
export const DEFAULT_SIGMA = 0.02;
export const PRIOR_DF = 4;

/** How much of a cell's time is work of another kind than its baseline's: 1 - min(r, 1/r). */
export function otherWork(ratio: number): number {
  return ratio > 0 && Number.isFinite(ratio) ? 1 - Math.min(ratio, 1 / ratio) : 0;
}

/** The model's parameters and where they came from (results.json `run.between_run`). */
export interface BetweenModel extends Omit<BetweenRun, 'variance'> {
  tau0: number;
  sigma: number;
}

/** The between-run variance of a cell whose paired ratio is `ratio`. */
export function componentFor(m: BetweenModel, ratio: number): BetweenRun {
  const w = otherWork(ratio);
  return { variance: m.tau0 ** 2 + (m.sigma * w) ** 2, df: m.df, source: m.source, runs: m.runs, cells: m.cells };
}

/** A results file's recorded model (`run.between_run`), checked as a hostile file's fields are; null when it has none. */
export function betweenOf(r: { run: Record<string, unknown> | null }): BetweenModel | null {
  const m = r.run?.between_run as Record<string, unknown> | null | undefined;
  if (!m || typeof m !== 'object') return null;
  const ok = (v: unknown, max: number) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= max;
  if (!ok(m.tau0, 1) || !ok(m.sigma, 1) || !ok(m.df, 1e9) || !((m.df as number) > 0)) return null;
  const source = m.source === 'earlier runs' || m.source === 'default' ? m.source : 'default';
  return {
    tau0: m.tau0 as number,
    sigma: m.sigma as number,
    df: m.df as number,
    source,
    runs: ok(m.runs, 1e6) ? (m.runs as number) : 1,
    cells: ok(m.cells, 1e9) ? (m.cells as number) : 0,
  };
}

/** The default model, used alone when no earlier run can be compared with this one. */
export function defaultModel(): BetweenModel {
  return { tau0: DEFAULT_TAU0, sigma: DEFAULT_SIGMA, df: PRIOR_DF, source: 'default', runs: 1, cells: 0 };
}

/**
 * The model from runs of one spec on one machine (this one and earlier comparable ones, in any order). Per
 * cell seen in K >= 2 runs, the method of moments: the variance of its run means beyond the mean of their
 * own variances estimates tau_c^2 on K - 1 degrees of freedom. tau0^2 and sigma^2 are fitted to those by
 * least squares weighted by K - 1, neither below zero, then shrunk towards the default with PRIOR_DF
 * against the data's degrees of freedom. Fewer than two runs: the default.
 */
export function betweenModel(runs: readonly RunCells[]): BetweenModel {
  const fallback = defaultModel();
  const used = runs.filter((r) => r.size > 0);
  if (used.length < 2) return fallback;
  const ids = new Set(used.flatMap((r) => [...r.keys()]));
  const rows: { q: number; x: number; weight: number }[] = [];
  for (const id of ids) {
    const seen = used.flatMap((r) => (r.has(id) ? [r.get(id)!] : []));
    if (seen.length < 2) continue;
    const k = seen.length;
    const mean = seen.reduce((a, s) => a + s.mean, 0) / k;
    const spread = seen.reduce((a, s) => a + (s.mean - mean) ** 2, 0) / (k - 1);
    const own = seen.reduce((a, s) => a + s.variance, 0) / k;
    rows.push({ q: spread - own, x: otherWork(Math.exp(mean)) ** 2, weight: k - 1 });
  }
  const df = rows.reduce((a, r) => a + r.weight, 0);
  if (rows.length === 0 || df === 0) return fallback;
  const { a, b } = nonNegativeFit(rows);
  const shrink = (prior: number, data: number) => (PRIOR_DF * prior + df * data) / (PRIOR_DF + df);
  return {
    tau0: Math.sqrt(shrink(DEFAULT_TAU0 ** 2, a)),
    sigma: Math.sqrt(shrink(DEFAULT_SIGMA ** 2, b)),
    df: PRIOR_DF + df,
    source: 'earlier runs',
    runs: used.length,
    cells: rows.length,
  };
}

/** Weighted least squares of q = a + b x with a, b >= 0 (the constrained optimum lies on a boundary when the free one does not). */
function nonNegativeFit(rows: readonly { q: number; x: number; weight: number }[]): { a: number; b: number } {
  const sw = rows.reduce((s, r) => s + r.weight, 0);
  const mx = rows.reduce((s, r) => s + r.weight * r.x, 0) / sw;
  const mq = rows.reduce((s, r) => s + r.weight * r.q, 0) / sw;
  const sxx = rows.reduce((s, r) => s + r.weight * (r.x - mx) ** 2, 0);
  const sxq = rows.reduce((s, r) => s + r.weight * (r.x - mx) * (r.q - mq), 0);
  const b = sxx > 0 ? sxq / sxx : 0;
  const a = mq - b * mx;
  if (a >= 0 && b >= 0) return { a, b };
  // Only b: q = b x through the origin; only a: the weighted mean. The better of the two that are allowed.
  const sxx0 = rows.reduce((s, r) => s + r.weight * r.x * r.x, 0);
  const bOnly = sxx0 > 0 ? Math.max(0, rows.reduce((s, r) => s + r.weight * r.x * r.q, 0) / sxx0) : 0;
  const aOnly = Math.max(0, mq);
  const loss = (p: { a: number; b: number }) => rows.reduce((s, r) => s + r.weight * (r.q - p.a - p.b * r.x) ** 2, 0);
  const candidates = [
    { a: 0, b: bOnly },
    { a: aOnly, b: 0 },
  ];
  return candidates.reduce((best, p) => (loss(p) < loss(best) ? p : best));
}
