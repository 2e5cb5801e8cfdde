// Pure: what a run of a plan will cost: its processes by kind, and its wall time estimated from the
// last run of the same spec on this machine (each process's wall time, by cell and kind, plus what the
// run spent outside its processes: starting fork servers, probing, writing reports).
import type { Job } from './jobs.ts';
import type { ProcessRecord } from '../records/journal.ts';

/** The last run of a spec, as the estimate reads it. */
export interface LastRun {
  dir: string;
  started: string;
  finished: string;
  /** Processes it ran at once (--jobs). */
  concurrency: number;
  records: ProcessRecord[];
}

/** The cost of running a plan. */
export interface PlanCost {
  /** Cells that start at least one process. */
  cells: number;
  /** Baseline cells timed inside their row's paired processes (src/run/jobs.ts baselineDonors) and starting none. */
  paired_baselines: number;
  processes: { time: number; memory: number; aa: number; control: number; total: number };
  /** null without a finished earlier run of the spec to learn from. */
  estimate: { seconds: number; from: string; started: string; matched: number } | null;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * The cost of `jobs`; the estimate takes each job's wall time from the last run (its cell and kind, else its
 * kind's mean). `pairedBaselines` are the ids of the baseline cells timed by their row's processes.
 */
export function planCost(
  jobs: readonly Job[],
  last: LastRun | null,
  pairedBaselines: ReadonlySet<string> = new Set(),
): PlanCost {
  const count = (k: Job['kind']) => jobs.filter((j) => j.kind === k).length;
  const processes = {
    time: count('time'),
    memory: count('memory'),
    aa: count('aa'),
    control: count('control'),
    total: jobs.length,
  };
  // A baseline cell timed by its row starts no timing process; its control and memory processes are the row's.
  const started = new Set(
    jobs.filter((j) => j.kind === 'time' || j.kind === 'aa' || !pairedBaselines.has(j.cell.id)).map((j) => j.cell.id),
  );
  const paired_baselines = [...pairedBaselines].filter((id) => !started.has(id)).length;
  const cells = started.size + paired_baselines;
  if (!last || last.records.length === 0 || jobs.length === 0)
    return { cells, paired_baselines, processes, estimate: null };
  const byKey = new Map<string, number[]>();
  const byKind = new Map<string, number[]>();
  for (const r of last.records) {
    byKey.set(`${r.cell}#${r.kind}`, [...(byKey.get(`${r.cell}#${r.kind}`) ?? []), r.wall_s]);
    byKind.set(r.kind, [...(byKind.get(r.kind) ?? []), r.wall_s]);
  }
  const all = mean(last.records.map((r) => r.wall_s));
  let matched = 0;
  let work = 0;
  for (const j of jobs) {
    const own = byKey.get(`${j.cell.id}#${j.kind}`);
    if (own) matched++;
    work += mean(own ?? byKind.get(j.kind) ?? [all]);
  }
  const concurrency = Math.max(1, last.concurrency);
  // From its first process on: an environment build or the probe of that first run does not come back.
  const firstStart = Math.min(...last.records.map((r) => Date.parse(r.started)).filter(Number.isFinite));
  const spent =
    (Date.parse(last.finished) - (Number.isFinite(firstStart) ? firstStart : Date.parse(last.started))) / 1000;
  const overhead = Number.isFinite(spent)
    ? Math.max(0, spent - last.records.reduce((a, r) => a + r.wall_s, 0) / concurrency)
    : 0;
  return {
    cells,
    paired_baselines,
    processes,
    estimate: { seconds: work / concurrency + overhead, from: last.dir, started: last.started, matched },
  };
}

/** `about 19 min` / `about 40 s`. */
export function describeDuration(seconds: number): string {
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 5400) return `about ${Math.round(seconds / 60)} min`;
  return `about ${(seconds / 3600).toFixed(1)} h`;
}
