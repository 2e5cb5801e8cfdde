// A measured cell of a results file (format 1) as benchgrid writes it, for the fixtures that write results
// files by hand: its median, min and max are those of its processes' medians, as the loader recomputes
// them from the raw samples (src/results/consistency.ts).
import { median } from '../../src/stats/summary.ts';

/** The JSON of an ok cell whose processes timed `samples` (one list a process); `extra` replaces any field. */
export function measuredCellJson(samples: number[][], extra: Record<string, unknown> = {}): Record<string, unknown> {
  const medians = samples.map((s) => median(s));
  return {
    status: 'ok',
    statuses: ['ok'],
    reason: null,
    median_ms: median(medians),
    min_ms: Math.min(...medians),
    max_ms: Math.max(...medians),
    processes: samples.length,
    samples_per_process: samples.map((s) => s.length),
    samples_ms: samples,
    per_process: null,
    memory: null,
    tool_version: null,
    error: null,
    max_abs_diff: null,
    exact: null,
    ...extra,
  };
}
