// Pure: a cell's effect-size guard and task-level agreement from its timing processes (docs/contracts.md,
// "Does the write move the output?"), the order of exactness verdicts, and their loading from a results file.
import type { ProcessResult } from '../records/outcome.ts';
import type { Agreement, EffectFigures } from '../records/record.ts';
import type { Verdict } from './model.ts';
import { bad, child, optNonNegative, record, type At } from './fields.ts';

// The figures are wire records (src/records/record.ts); the results model keeps them as they came.
export type { Agreement, EffectFigures };

/**
 * Verdicts from best to worst. `degraded` (beyond float32 rounding at the subject's reduced precision, in agreement
 * at float32) is below close: the difference is larger than the tolerance or float32 rounding explains, yet the
 * control shows the tool computes the contract. `vacuous` (the values agree, but the write does not move the
 * output) is below it: no test could tell there whether the tool does the work at all. A mismatch stays the worst.
 */
export const VERDICT_RANK: Record<NonNullable<Verdict>, number> = {
  bit: 0,
  close: 1,
  degraded: 2,
  vacuous: 3,
  mismatch: 4,
};

/** The verdict of a cell: its processes' worst (null when none compared). */
export function worstVerdict(verdicts: Verdict[]): Verdict {
  let out: Verdict = null;
  for (const v of verdicts) if (v !== null && (out === null || VERDICT_RANK[v] > VERDICT_RANK[out])) out = v;
  return out;
}

const fold = (xs: (number | null | undefined)[], pick: (a: number, b: number) => number): number | null | undefined => {
  const known = xs.filter((x): x is number => typeof x === 'number');
  if (known.length) return known.reduce((a, b) => pick(a, b));
  return xs.some((x) => x === null) ? null : undefined;
};

/** A generation's parting points: the earliest where any process parted (null: none did in any). */
const earliest = (xs: (number | null | undefined)[]): number | null | undefined => fold(xs, Math.min);

/** Keys whose value is undefined are left out, so a cell's figures hold only what its output has. */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * The cell's guard: the weakest effect any process saw (processes compute it alike; the weakest is what a
 * reader may rely on); null when no process recorded one (a contract that does not write, older files).
 */
export function cellEffect(results: ProcessResult[]): EffectFigures | null {
  const all = results.flatMap((r) => (r.exact?.effect ? [r.exact.effect] : []));
  if (all.length === 0) return null;
  return defined({
    max_abs_diff:
      fold(
        all.map((e) => e.max_abs_diff),
        Math.min,
      ) ?? null,
    vacuous: all.some((e) => e.vacuous),
    ...foldAgreement(all, 'most'),
  });
}

/** The cell's agreement: the worst over its processes; null when no process recorded one. */
export function cellAgreement(results: ProcessResult[]): Agreement | null {
  const all = results.flatMap((r) => (r.exact?.agreement ? [r.exact.agreement] : []));
  if (all.length === 0) return null;
  return defined(foldAgreement(all, 'least'));
}

/**
 * The agreement figures of several processes, one way or the other: the `least` agreement any saw (a cell's
 * agreement is its worst), or the `most` (an effect's weakest: where the write moved the output least). A
 * generation that never parts (null) agrees most: the least takes the earliest parting of any, the most is
 * null when any never parted, else the latest parting.
 */
function foldAgreement(all: Agreement[], which: 'least' | 'most'): Agreement {
  const least = which === 'least';
  const parted = all.map((a) => a.first_divergence);
  return {
    top1_agreement: fold(
      all.map((a) => a.top1_agreement),
      least ? Math.min : Math.max,
    ),
    tv_distance: fold(
      all.map((a) => a.tv_distance),
      least ? Math.max : Math.min,
    ),
    first_divergence: least ? earliest(parted) : parted.includes(null) ? null : fold(parted, Math.max),
  };
}

function fraction(v: unknown, at: At): number | null | undefined {
  if (v === undefined) return undefined;
  const x = optNonNegative(v, at);
  if (x !== null && x > 1) throw bad(at, 'a fraction from 0 to 1', v);
  return x;
}

function divergence(v: unknown, at: At): number | null | undefined {
  if (v === undefined || v === null) return v;
  if (!Number.isInteger(v) || (v as number) < 0) throw bad(at, 'a new-token index from 0, or null', v);
  return v as number;
}

function figuresOf(o: Record<string, unknown>, at: At): Agreement {
  return defined({
    top1_agreement: fraction(o.top1_agreement, child(at, 'top1_agreement')),
    tv_distance: fraction(o.tv_distance, child(at, 'tv_distance')),
    first_divergence: divergence(o.first_divergence, child(at, 'first_divergence')),
  });
}

/** A results file's `effect` of one cell, checked field by field; null when absent. */
export function parseEffect(v: unknown, at: At): EffectFigures | null {
  if (v === undefined || v === null) return null;
  const o = record(v, at);
  if (typeof o.vacuous !== 'boolean') throw bad(child(at, 'vacuous'), 'true or false', o.vacuous);
  return {
    max_abs_diff: optNonNegative(o.max_abs_diff, child(at, 'max_abs_diff')),
    vacuous: o.vacuous,
    ...figuresOf(o, at),
  };
}

/** A results file's `agreement` of one cell, checked field by field; null when absent. */
export function parseAgreement(v: unknown, at: At): Agreement | null {
  if (v === undefined || v === null) return null;
  return figuresOf(record(v, at), at);
}
