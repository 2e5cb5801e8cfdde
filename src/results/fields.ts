// Typed readers for fields of a results file that came from elsewhere: each returns the value with its
// type or throws a UserError naming the file, the field and what was found.
import { UserError } from '../errors.ts';
import { dict } from '../util/dict.ts';

/** Where a value sits: the file and a path like `resnet18.groups["A/x/y/z"].samples_ms[0]`. */
export interface At {
  file: string;
  path: string;
}

/** The location of a child of `at`. */
export function child(at: At, key: string | number): At {
  const part =
    typeof key === 'number'
      ? `[${key}]`
      : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
        ? `.${key}`
        : `[${JSON.stringify(key)}]`;
  return { file: at.file, path: at.path ? `${at.path}${part}` : part.replace(/^\./, '') };
}

/** A refusal of one field. */
export function bad(at: At, expected: string, got: unknown): UserError {
  return new UserError(
    `${at.file}: ${at.path || '(top level)'}: expected ${expected} (got ${describe(got)}). Give a results file benchgrid or the seed driver wrote.`,
  );
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v);
  return `${typeof v} ${String(v)}`;
}

/** A mapping (not a list, not null). */
export function record(v: unknown, at: At): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(at, 'a mapping', v);
  return v as Record<string, unknown>;
}

/** A mapping, or {} when absent or null. */
export function optRecord(v: unknown, at: At): Record<string, unknown> {
  return v === undefined || v === null ? {} : record(v, at);
}

/** A list. */
export function list(v: unknown, at: At): unknown[] {
  if (!Array.isArray(v)) throw bad(at, 'a list', v);
  return v;
}

/** Text, or null when absent or null. */
export function optText(v: unknown, at: At): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw bad(at, 'text or null', v);
  return v;
}

/** Text. */
export function text(v: unknown, at: At): string {
  if (typeof v !== 'string') throw bad(at, 'text', v);
  return v;
}

/** A finite number. */
export function number(v: unknown, at: At): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(at, 'a number', v);
  return v;
}

/** A list of finite numbers. */
export function numbers(v: unknown, at: At): number[] {
  return list(v, at).map((x, i) => number(x, child(at, i)));
}

/** A list of texts. */
export function texts(v: unknown, at: At): string[] {
  return list(v, at).map((x, i) => text(x, child(at, i)));
}

/** A mapping of texts (or nulls) by name. */
export function textRecord(v: unknown, at: At): Record<string, string | null> {
  const out = dict<string | null>();
  for (const [k, x] of Object.entries(optRecord(v, at))) out[k] = optText(x, child(at, k));
  return out;
}

/** One of the allowed texts. */
export function oneOf<T extends string>(v: unknown, allowed: readonly T[], at: At): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v))
    throw bad(at, `one of ${allowed.join(', ')}`, v);
  return v as T;
}

/** Longest time a sample, a process's median or a phase may take: one day, the longest `timeout_s`. */
export const MAX_TIME_MS = 86_400_000;
/** Shortest time a sample may take: a nanosecond, the tick of the clocks the harness reads. */
export const MIN_TIME_MS = 1e-6;
/** Most processes per cell and samples per process benchgrid writes (the protocol's limits, docs/security.md). */
export const MAX_PROCESSES = 1000;
export const MAX_SAMPLES = 100_000;

const DAY = '86,400,000 (one day)';

/**
 * A time in milliseconds a process could have measured: at least a nanosecond and at most a day. Zero,
 * negative and 1e308 ms are valid JSON numbers that make ratios infinite or NaN (compare would print
 * `+Infinity%` and pass `--fail-on-slower`): refused here, where the file is read.
 */
export function time(v: unknown, at: At): number {
  if (typeof v !== 'number' || !(v >= MIN_TIME_MS && v <= MAX_TIME_MS))
    throw bad(at, `a time in milliseconds from 0.000001 (a nanosecond) to ${DAY}`, v);
  return v;
}

/** A time, or null when absent or null. */
export function optTime(v: unknown, at: At): number | null {
  return v === undefined || v === null ? null : time(v, at);
}

/**
 * A duration that may be zero (a spread, a collection that found nothing), in milliseconds up to a day,
 * or in seconds up to two days (a process's wall time is its time-out, at most a day, and its start).
 */
export function duration(v: unknown, at: At, unit: 'milliseconds' | 'seconds' = 'milliseconds'): number {
  const [max, words] = unit === 'seconds' ? [172_800, '172,800 (two days)'] : [MAX_TIME_MS, DAY];
  if (typeof v !== 'number' || !(v >= 0 && v <= max)) throw bad(at, `a duration in ${unit} from 0 to ${words}`, v);
  return v;
}

/** A duration, or null when absent or null. */
export function optDuration(v: unknown, at: At, unit: 'milliseconds' | 'seconds' = 'milliseconds'): number | null {
  return v === undefined || v === null ? null : duration(v, at, unit);
}

/** A whole number from 0 to `max`. */
export function count(v: unknown, at: At, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
    throw bad(at, `a whole number from 0 to ${max.toLocaleString('en')}`, v);
  return v;
}

/** A count, or null when absent or null. */
export function optCount(v: unknown, at: At, max: number): number | null {
  return v === undefined || v === null ? null : count(v, at, max);
}

/** A finite number that is not negative (a difference, a byte count); `what` names it in a refusal. */
export function nonNegative(v: unknown, at: At, what = 'a number from 0'): number {
  if (typeof v !== 'number' || !(v >= 0 && v < Infinity)) throw bad(at, what, v);
  return v;
}

/** A non-negative number, or null when absent or null. */
export function optNonNegative(v: unknown, at: At): number | null {
  return v === undefined || v === null ? null : nonNegative(v, at);
}

/** A list of at most `max` items. */
export function boundedList(v: unknown, at: At, max: number, noun: string): unknown[] {
  const l = list(v, at);
  if (l.length > max)
    throw new UserError(
      `${at.file}: ${at.path}: more than ${max.toLocaleString('en')} ${noun} (${l.length.toLocaleString('en')}); benchgrid writes at most that. Give a results file benchgrid or the seed driver wrote.`,
    );
  return l;
}

/** Per process, its samples' times: at most MAX_PROCESSES lists of at most MAX_SAMPLES times each. */
export function sampleLists(v: unknown, at: At, each: (x: unknown, at: At) => number = time): number[][] {
  return boundedList(v, at, MAX_PROCESSES, 'processes').map((p, i) =>
    boundedList(p, child(at, i), MAX_SAMPLES, 'samples').map((x, k) => each(x, child(child(at, i), k))),
  );
}
