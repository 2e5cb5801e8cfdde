// Pure: the order in which a run's processes start. Interleaved by default: in rounds, every
// cell runs one process per round in an order shuffled per round from a recorded seed, so drift during a
// run (load, clock frequency, heat) spreads over every cell instead of landing on whole cells.
import { CONTROL_STRIDE, type Job } from './jobs.ts';
import { mulberry32 } from '../util/prng.ts';
import type { Schedule, ScheduleKind } from '../records/journal.ts';

// The schedule's types are the journal's, which records it.
export type { Schedule, ScheduleKind };

/** The schedule kinds, for the command line's validation. */
export const SCHEDULE_KINDS: readonly ScheduleKind[] = ['interleaved', 'sequential'];

/** A fresh 32-bit seed for a new run (not for resumed ones: they reuse the recorded seed). */
export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 32);
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The round of each job: its position among its cell's own processes (time, then memory). A control
 * process k (of each environment) goes into round k, beside process k of the cells it controls, and its
 * cell's memory processes follow its controls.
 */
export function roundsOf(jobs: Job[]): Job[][] {
  const perCell = new Map<string, Job[]>();
  const aa: Job[] = [];
  const controls = new Map<string, Job[]>();
  for (const job of jobs) {
    if (job.kind === 'aa') aa.push(job);
    else if (job.kind === 'control') controls.set(job.cell.id, [...(controls.get(job.cell.id) ?? []), job]);
    else perCell.set(job.cell.id, [...(perCell.get(job.cell.id) ?? []), job]);
  }
  const controlRounds = (id: string) =>
    Math.max(0, ...(controls.get(id) ?? []).map((j) => (j.index % CONTROL_STRIDE) + 1));
  const count = Math.max(
    1,
    ...[...perCell].map(([id, l]) => controlRounds(id) + l.length),
    ...[...controls.keys()].map(controlRounds),
  );
  const rounds: Job[][] = Array.from({ length: count }, () => []);
  for (const list of controls.values()) for (const job of list) rounds[job.index % CONTROL_STRIDE].push(job);
  for (const [id, list] of perCell) list.forEach((job, i) => rounds[controlRounds(id) + i].push(job));
  // A/A pair k (processes 2k and 2k+1) goes whole into one round, as two cells of a comparison do;
  // the pairs are spread evenly over the rounds so that drift reaches them as it reaches the cells.
  const pairs = new Map<number, Job[]>();
  for (const job of aa) pairs.set(Math.floor(job.index / 2), [...(pairs.get(Math.floor(job.index / 2)) ?? []), job]);
  const pairCount = Math.max(1, ...[...pairs.keys()].map((k) => k + 1));
  for (const [k, pair] of pairs) rounds[Math.min(count - 1, Math.floor(((k + 0.5) * count) / pairCount))].push(...pair);
  return rounds;
}

/**
 * The jobs in the order they start. `sequential` returns them as given (per cell its timing processes,
 * then its memory processes; the A/A pairs last). `interleaved` returns round after round, each round
 * shuffled with the seeded PRNG; the same jobs and seed always give the same order (a resumed run
 * continues the same schedule).
 */
export function schedule(jobs: Job[], s: Schedule): Job[] {
  if (s.kind === 'sequential') return [...jobs];
  const random = mulberry32(s.seed);
  return roundsOf(jobs).flatMap((round) => shuffle(round, random));
}
