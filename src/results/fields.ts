// Typed readers for fields of a results file that came from elsewhere: each returns the value with its
// type or throws a UserError naming the file, the field and what was found (issue 15).
import { UserError } from '../errors.ts';

/** Where a value sits: the file and a path like `resnet18.groups["A/x/y/z"].samples_ms[0]`. */
export interface At {
  file: string;
  path: string;
}

/** The location of a child of `at`. */
export function child(at: At, key: string | number): At {
  const part = typeof key === 'number' ? `[${key}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  return { file: at.file, path: at.path ? `${at.path}${part}` : part.replace(/^\./, '') };
}

/** A refusal of one field. */
export function bad(at: At, expected: string, got: unknown): UserError {
  return new UserError(`${at.file}: ${at.path || '(top level)'}: expected ${expected} (got ${describe(got)}). Give a results file benchgrid or the seed driver wrote.`);
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

/** A finite number, or null when absent or null. */
export function optNumber(v: unknown, at: At): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw bad(at, 'a number or null', v);
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
  const out: Record<string, string | null> = {};
  for (const [k, x] of Object.entries(optRecord(v, at))) out[k] = optText(x, child(at, k));
  return out;
}

/** One of the allowed texts. */
export function oneOf<T extends string>(v: unknown, allowed: readonly T[], at: At): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw bad(at, `one of ${allowed.join(', ')}`, v);
  return v as T;
}
