// bisect's search: which revision to measure next, given the verdicts so far, and when the first slower
// revision is known. The revisions are the first-parent line from good (excluded, not slower by
// definition) to bad (the last), oldest first. bad is taken at its word, as git bisect takes it: each
// step halves the stretch between the last revision known not slower and the first slower one, and bad
// itself is measured only when the search ends on it, so that the answer always stands on a verdict
// (and a bad that is not slower is found out). n revisions take at most ceil(log2(n)) + 1 steps. Pure.

/** A step's label: bench-change's verdict rule (src/change/verdict.ts), or unknown when it gave none. */
export type StepLabel = 'slower' | 'not_slower' | 'unknown';

/** One measured revision. */
export interface StepVerdict {
  revision: string;
  label: StepLabel;
}

/** What to do next. */
export type BisectNext =
  | { kind: 'measure'; revision: string }
  /** The first revision labelled slower: its parent on the line (or good) is not slower. */
  | { kind: 'found'; revision: string }
  /** bad is not slower than good: there is no slowdown to look for. */
  | { kind: 'none' }
  /** A step gave no verdict; the first slower revision lies in `range` (oldest first), which is left unsearched. */
  | { kind: 'stuck'; revision: string; range: string[] };

/** The most steps a line of `n` revisions takes: halving the n possible first slower revisions, then bad itself. */
export function maxSteps(n: number): number {
  return n <= 0 ? 0 : Math.ceil(Math.log2(n)) + 1;
}

/**
 * The next step from the steps taken so far (in the order they were taken, each a revision of the line
 * chosen by this function). The search keeps the bracket (lo, hi]: lo the last index known not slower
 * (-1: good), hi the first index labelled slower, else bad's (taken at its word until measured); the
 * answer is hi once they are adjacent and hi was measured.
 */
export function nextStep(revisions: string[], steps: StepVerdict[]): BisectNext {
  if (revisions.length === 0) throw new Error('nextStep: no revision between good and bad');
  const index = new Map(revisions.map((r, i) => [r, i]));
  const bad = revisions.length - 1;
  let lo = -1;
  let hi = bad;
  let measured = false;
  for (const s of steps) {
    const i = index.get(s.revision);
    if (i === undefined) throw new Error(`nextStep: ${s.revision} is not on the line between good and bad`);
    if (s.label === 'unknown') return { kind: 'stuck', revision: s.revision, range: revisions.slice(lo + 1, hi + 1) };
    if (s.label === 'not_slower') lo = Math.max(lo, i);
    else if (i <= hi) [hi, measured] = [i, true];
  }
  if (lo === bad && !measured) return { kind: 'none' };
  if (lo >= hi)
    throw new Error(
      `nextStep: ${revisions[lo]} is labelled not slower after a later revision was labelled slower; steps come from nextStep`,
    );
  if (hi - lo > 1) return { kind: 'measure', revision: revisions[Math.floor((lo + hi) / 2)] };
  return measured ? { kind: 'found', revision: revisions[hi] } : { kind: 'measure', revision: revisions[bad] };
}
