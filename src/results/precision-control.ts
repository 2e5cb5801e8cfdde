// Pure: a cell's precision control from its timing processes (docs/contracts.md, "Differs only by precision?"),
// and its loading from a results file. The harness decides the verdict (`degraded` or `mismatch`); this keeps the
// figures a reader needs to see why.
import type { ProcessResult } from '../records/outcome.ts';
import { bad, child, nonNegative, oneOf, optNonNegative, optText, record, type At } from './fields.ts';

/** A cell's control: the subject's dtype, the verdict and max abs diff at float32, and the tolerance they were judged at. */
export interface PrecisionControl {
  from: 'bfloat16' | 'float16';
  /** The worst of the processes' verdicts at float32; null when no process's control could run (`error`). */
  verdict: 'bit' | 'close' | 'mismatch' | null;
  /** The largest over the processes; null when none could be lined up. */
  max_abs_diff: number | null;
  rtol: number;
  atol: number;
  /** Why the control could not run, where no process's did. */
  error?: string | null;
}

const RANK = { bit: 0, close: 1, mismatch: 2 } as const;
const FROM = ['bfloat16', 'float16'] as const;

/** The cell's control: the worst verdict and largest difference any process's control saw; null when none ran. */
export function cellPrecisionControl(results: ProcessResult[]): PrecisionControl | null {
  const all = results.flatMap((r) => (r.exact?.precision_control ? [r.exact.precision_control] : []));
  if (all.length === 0) return null;
  const ran = all.filter((c) => c.verdict !== null);
  if (ran.length === 0)
    return {
      from: all[0].from,
      verdict: null,
      max_abs_diff: null,
      rtol: all[0].rtol,
      atol: all[0].atol,
      error: all[0].error,
    };
  const worst = ran.reduce((a, b) => (RANK[b.verdict!] > RANK[a.verdict!] ? b : a));
  const diffs = ran.map((c) => c.max_abs_diff);
  return {
    from: worst.from,
    verdict: worst.verdict,
    rtol: worst.rtol,
    atol: worst.atol,
    max_abs_diff: diffs.some((d) => d === null) ? null : Math.max(...(diffs as number[])),
  };
}

/** A results file's `precision_control` of one cell, checked field by field; null when absent. */
export function parsePrecisionControl(v: unknown, at: At): PrecisionControl | null {
  if (v === undefined || v === null) return null;
  const o = record(v, at);
  const f = (k: string) => child(at, k);
  const verdict = o.verdict === null ? null : oneOf(o.verdict, ['bit', 'close', 'mismatch'] as const, f('verdict'));
  const error = optText(o.error, f('error'));
  if (verdict === null && error === null)
    throw bad(f('error'), 'why the control failed, where its verdict is null', o.error);
  return {
    from: oneOf(o.from, FROM, f('from')),
    verdict,
    max_abs_diff: optNonNegative(o.max_abs_diff, f('max_abs_diff')),
    rtol: nonNegative(o.rtol, f('rtol')),
    atol: nonNegative(o.atol, f('atol')),
    ...(error === null ? {} : { error }),
  };
}
