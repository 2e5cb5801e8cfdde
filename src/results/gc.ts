// Garbage-collection cost of a cell: the timed collections the harness runs between samples (docs/protocol.md).
import { median } from '../stats/summary.ts';

/** Per-process gc samples, or null when any process did not record them (results older than the GC policy). */
export function gcSamples(timings: { gc_ms?: number[] }[]): number[][] | null {
  if (timings.length === 0 || timings.some((t) => !Array.isArray(t.gc_ms) || t.gc_ms.length === 0)) return null;
  return timings.map((t) => t.gc_ms!);
}

/** Median of the per-process gc medians (ms), the figure shown beside a cell's median; null when not recorded. */
export function gcMedian(gc: number[][] | null | undefined): number | null {
  if (!gc || gc.length === 0 || gc.some((s) => s.length === 0)) return null;
  return median(gc.map((s) => median(s)));
}

/**
 * Whether a cell's collection cost is worth showing beside its median: at least 5% of it (and 0.05 ms),
 * below which it is within the noise of the timing itself.
 */
export function gcSignificant(gcMs: number | null | undefined, medianMs: number | null): boolean {
  return gcMs != null && medianMs != null && medianMs > 0 && gcMs >= 0.05 && gcMs >= 0.05 * medianMs;
}
