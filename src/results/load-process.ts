// The per-process figures of a results file's cell (per_process and memory), type-checked as load.ts
// checks the rest of the cell.
import {
  boundedList,
  child,
  count,
  duration,
  MAX_PROCESSES,
  MAX_SAMPLES,
  nonNegative,
  oneOf,
  optDuration,
  optRecord,
  record,
  text,
  time,
  type At,
} from './fields.ts';
import type { MemoryStats, ProcessStats } from './model.ts';
import { dict } from '../util/dict.ts';

/** One entry of a cell's per_process list. */
export function processOf(v: unknown, at: At): ProcessStats {
  const p = record(v, at);
  const f = (k: string) => child(at, k);
  const phases = dict<number>();
  // A phase the process never reached is null (no exactness check, say): it is left out.
  for (const [k, x] of Object.entries(optRecord(p.phases_s, f('phases_s')))) {
    const s = optDuration(x, child(f('phases_s'), k), 'seconds');
    if (s !== null) phases[k] = s;
  }
  return {
    index: count(p.index, f('index'), MAX_PROCESSES * 10),
    median_ms: time(p.median_ms, f('median_ms')),
    min_ms: time(p.min_ms, f('min_ms')),
    max_ms: time(p.max_ms, f('max_ms')),
    iqr_ms: duration(p.iqr_ms, f('iqr_ms')),
    n: count(p.n, f('n'), MAX_SAMPLES),
    stopped_by: oneOf(p.stopped_by, ['samples', 'budget', 'precision'] as const, f('stopped_by')),
    gc_median_ms: optDuration(p.gc_median_ms, f('gc_median_ms')),
    phases_s: phases,
    wall_s: duration(p.wall_s, f('wall_s'), 'seconds'),
    cpus:
      p.cpus === undefined || p.cpus === null
        ? null
        : boundedList(p.cpus, f('cpus'), 65_536, 'cores').map((x, i) => count(x, child(f('cpus'), i), 65_535)),
    start: p.start === undefined ? 'cold' : oneOf(p.start, ['cold', 'fork'] as const, f('start')),
    ...(p.from === undefined ? {} : { from: text(p.from, f('from')) }),
  };
}

/** A cell's memory figures: one peak per memory process (CUDA's null on CPU). */
export function memoryOf(m: Record<string, unknown>, at: At): MemoryStats {
  return {
    peak_rss_bytes: boundedList(m.peak_rss_bytes ?? [], child(at, 'peak_rss_bytes'), MAX_PROCESSES, 'processes').map(
      (x, i) => nonNegative(x, child(child(at, 'peak_rss_bytes'), i), 'a byte count'),
    ),
    cuda_peak_allocated_bytes: boundedList(
      m.cuda_peak_allocated_bytes ?? [],
      child(at, 'cuda_peak_allocated_bytes'),
      MAX_PROCESSES,
      'processes',
    ).map((x, i) =>
      x === null ? null : nonNegative(x, child(child(at, 'cuda_peak_allocated_bytes'), i), 'a byte count or null'),
    ),
  };
}
