// Pure: what a cell's timing processes kept per call, and whether that is growth (docs/protocol.md, "Memory").
//
// Each timing process reads its memory after every sample's full collection (benchgrid_harness/memory.py)
// and records the Theil-Sen slope of those readings per call, so a one-off step (the gradients a first
// timed backward makes: 45 MiB on ResNet-18) is not spread over the calls as growth. A process keeps
// memory when that is at least GROWTH_PER_CALL_BYTES per call, and in all at least GROWTH_TOTAL_BYTES and
// GROWTH_TOTAL_SHARE of what the counter read before: allocator noise is a one-off shift (a free list that
// grows once, an arena kept), of a size that follows the process's own (its activations, its heap), which a
// per-call figure alone would inflate in a process of few samples, while a leak grows with every call. On
// ResNet-18 (CPU, 10 samples) hooks, nnsight, torchlens and Captum processes moved their RSS by -12 MiB to
// +3 MiB, up to 272 KiB per call; a leak of a mebibyte per call over 20 calls reads 1016-1038 KiB per
// call. A one-off shift can be the same in every process: the hooks reference's GPT-2 residual cache (1
// warm-up) grew 3.9-4.3 MiB in each of 3 processes over 5 calls, ~750 KiB per call, and 2-4 MiB over 9,
// below 1% of its 1.4 GiB. A cell is marked when at least two thirds of its judged processes keep memory: a
// leak shows in every fresh process, noise often in some (tl_record: two of three at ~95 KiB per call).
import type { MemoryGrowthRecord } from '../records/record.ts';
import { median } from '../stats/summary.ts';
import { bad, boundedList, child, count, MAX_PROCESSES, MAX_SAMPLES, record, type At } from './fields.ts';

/** Smallest growth per call that marks a process (64 KiB). */
export const GROWTH_PER_CALL_BYTES = 64 * 1024;
/** Smallest growth over all its calls that marks a process (4 MiB)... */
export const GROWTH_TOTAL_BYTES = 4 * 1024 * 1024;
/** ...and the smallest as a share of the counter's reading before the first sample (1%). */
export const GROWTH_TOTAL_SHARE = 0.01;
/** The share of a cell's judged processes that must keep memory for the cell to be marked. */
export const GROWTH_PROCESS_SHARE = 2 / 3;

/** The two counters read: the resident set size, and on CUDA the bytes of live tensors. */
export type GrowthCounter = 'rss' | 'cuda';

/** A counter that grows in enough of a cell's processes: its median per call over the judged processes. */
export interface GrowthMark {
  counter: GrowthCounter;
  per_call_bytes: number;
  /** Processes that kept memory, of the processes judged. */
  processes: number;
  of: number;
}

/** A cell's memory growth: per timing process, in process order, and the marks judged from them. */
export interface MemoryGrowth {
  /** The tool's calls between the two readings. */
  calls: number[];
  /** Bytes kept per call by the resident set size; null: not read, or a process with no warm-up (not judged). */
  rss_per_call_bytes: (number | null)[];
  /** The same of torch.cuda.memory_allocated; null off CUDA. */
  cuda_per_call_bytes: (number | null)[];
  /** Each counter's reading before the first sample (what GROWTH_TOTAL_SHARE is a share of); null: not read. */
  rss_before_bytes: (number | null)[];
  cuda_before_bytes: (number | null)[];
  /** The counters that grow (CUDA first); empty when nothing does. Derived: recomputed when a file is read. */
  grows: GrowthMark[];
}

/** Whether one process kept memory: enough per call, and enough in all for a counter that read `before`. */
export function keeps(perCall: number, calls: number, before: number): boolean {
  return (
    perCall >= GROWTH_PER_CALL_BYTES && perCall * calls >= Math.max(GROWTH_TOTAL_BYTES, GROWTH_TOTAL_SHARE * before)
  );
}

/** One counter's figures across a cell's processes. */
export interface CounterFigures {
  perCall: readonly (number | null)[];
  before: readonly (number | null)[];
}

/** The mark of one counter from its per-process figures, or null when too few processes keep memory. */
export function judge(counter: GrowthCounter, calls: readonly number[], figures: CounterFigures): GrowthMark | null {
  const judged = figures.perCall.flatMap((v, i) =>
    v === null ? [] : [{ v, calls: calls[i], before: figures.before[i] ?? 0 }],
  );
  if (judged.length === 0) return null;
  const growing = judged.filter((p) => keeps(p.v, p.calls, p.before)).length;
  if (growing < Math.ceil(GROWTH_PROCESS_SHARE * judged.length)) return null;
  return { counter, per_call_bytes: median(judged.map((p) => p.v)), processes: growing, of: judged.length };
}

/** The cell's growth from per-process figures (all but `grows`), with its marks. */
export function withMarks(g: Omit<MemoryGrowth, 'grows'>): MemoryGrowth {
  const rss = judge('rss', g.calls, { perCall: g.rss_per_call_bytes, before: g.rss_before_bytes });
  const cuda = judge('cuda', g.calls, { perCall: g.cuda_per_call_bytes, before: g.cuda_before_bytes });
  return { ...g, grows: [cuda, rss].filter((m): m is GrowthMark => m !== null) };
}

/**
 * A cell's growth from its timing processes' records; null when none recorded one (older results, a
 * baseline cell timed in its row's blocks before the import). A process without warm-ups is not judged:
 * its first sample's one-off set-up (caches, lazy initialisation) would read as growth.
 */
export function cellGrowth(
  timings: readonly { warmups: number; memory_growth?: MemoryGrowthRecord }[],
): MemoryGrowth | null {
  const recorded = timings.filter((t) => t.memory_growth);
  if (recorded.length === 0) return null;
  const figure = (t: (typeof recorded)[number], k: GrowthCounter) =>
    t.warmups > 0 ? t.memory_growth!.per_call_bytes[k] : null;
  const before = (reading: [number, number] | null) => reading?.[0] ?? null;
  return withMarks({
    calls: recorded.map((t) => t.memory_growth!.calls),
    rss_per_call_bytes: recorded.map((t) => figure(t, 'rss')),
    cuda_per_call_bytes: recorded.map((t) => figure(t, 'cuda')),
    rss_before_bytes: recorded.map((t) => before(t.memory_growth!.rss_bytes)),
    cuda_before_bytes: recorded.map((t) => before(t.memory_growth!.cuda_allocated_bytes)),
  });
}

/** `memory: grows 1024 KiB per call` (on CUDA: `... on the GPU`) for a cell whose memory grows, else null. */
export function growthText(g: MemoryGrowth | null | undefined): string | null {
  if (!g || g.grows.length === 0) return null;
  const parts = g.grows.map(
    (m) => `${Math.round(m.per_call_bytes / 1024)} KiB per call${m.counter === 'cuda' ? ' on the GPU' : ''}`,
  );
  return `memory: grows ${parts.join(', ')}`;
}

/** Bytes per call in a results file: a finite number within what a process can hold either way. */
const MAX_BYTES = 1e15;

/** One figure per process, each bytes within ±1e15 (`min` 0 for a reading) or null. */
function byteList(v: unknown, at: At, length: number, min = -MAX_BYTES): (number | null)[] {
  const l = boundedList(v, at, MAX_PROCESSES, 'processes');
  if (l.length !== length) throw bad(at, `one figure per process, as many as \`calls\` has (${length})`, v);
  return l.map((x, i) => {
    if (x === null) return null;
    if (typeof x !== 'number' || !(x >= min && x <= MAX_BYTES))
      throw bad(child(at, i), `bytes from ${min === 0 ? 0 : '-1e15'} to 1e15, or null`, x);
    return x;
  });
}

/** A results file's `memory_growth` of one cell, checked field by field; the marks are judged afresh, never read. */
export function parseGrowth(v: unknown, at: At): MemoryGrowth | null {
  if (v === undefined || v === null) return null;
  const g = record(v, at);
  const calls = boundedList(g.calls, child(at, 'calls'), MAX_PROCESSES, 'processes').map((x, i) =>
    count(x, child(child(at, 'calls'), i), MAX_SAMPLES),
  );
  const bytes = (k: string, min?: number) => byteList(g[k], child(at, k), calls.length, min);
  return withMarks({
    calls,
    rss_per_call_bytes: bytes('rss_per_call_bytes'),
    cuda_per_call_bytes: bytes('cuda_per_call_bytes'),
    rss_before_bytes: bytes('rss_before_bytes', 0),
    cuda_before_bytes: bytes('cuda_before_bytes', 0),
  });
}
