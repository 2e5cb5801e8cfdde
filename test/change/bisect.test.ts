// bisect's search, on made-up verdicts: which revision it measures next, that it finds the first slower
// revision wherever it is planted within ceil(log2(n)) + 1 steps, and how it stops when bad is not slower
// or a step gives no verdict.
import { describe, expect, it } from 'vitest';
import { maxSteps, nextStep, type BisectNext, type StepVerdict } from '../../src/change/bisect.ts';

const line = (n: number) => Array.from({ length: n }, (_, i) => `c${i + 1}`);

/** Runs the search against a line whose revisions from index `first` on are slower (first = n: none is). */
function run(n: number, first: number): { next: BisectNext; steps: StepVerdict[] } {
  const revisions = line(n);
  const steps: StepVerdict[] = [];
  for (;;) {
    const next = nextStep(revisions, steps);
    if (next.kind !== 'measure') return { next, steps };
    const i = revisions.indexOf(next.revision);
    steps.push({ revision: next.revision, label: i >= first ? 'slower' : 'not_slower' });
    if (steps.length > 64) throw new Error('the search does not end');
  }
}

describe('bisect search', () => {
  it('measures the middle first, and bad only when the search ends on it', () => {
    const r = line(8);
    expect(nextStep(r, [])).toEqual({ kind: 'measure', revision: 'c4' });
    expect(nextStep(r, [{ revision: 'c4', label: 'not_slower' }])).toEqual({ kind: 'measure', revision: 'c6' });
    expect(nextStep(r, [{ revision: 'c4', label: 'slower' }])).toEqual({ kind: 'measure', revision: 'c2' });
    const late = [
      { revision: 'c4', label: 'not_slower' },
      { revision: 'c6', label: 'not_slower' },
      { revision: 'c7', label: 'not_slower' },
    ] as StepVerdict[];
    expect(nextStep(r, late)).toEqual({ kind: 'measure', revision: 'c8' });
    expect(nextStep(r, [...late, { revision: 'c8', label: 'slower' }])).toEqual({ kind: 'found', revision: 'c8' });
    expect(nextStep(line(1), [])).toEqual({ kind: 'measure', revision: 'c1' });
  });

  it('finds the first slower revision wherever it is, in at most ceil(log2(n)) + 1 steps', () => {
    for (const n of [1, 2, 3, 5, 8, 13, 100]) {
      for (let first = 0; first < n; first++) {
        const { next, steps } = run(n, first);
        expect(next).toEqual({ kind: 'found', revision: `c${first + 1}` });
        expect(steps.length).toBeLessThanOrEqual(maxSteps(n));
        // The answer was itself measured slower, and its parent on the line (unless it is good) not slower.
        expect(steps.find((s) => s.revision === `c${first + 1}`)?.label).toBe('slower');
        if (first > 0) expect(steps.find((s) => s.revision === `c${first}`)?.label).toBe('not_slower');
      }
    }
    expect([1, 2, 8, 9, 100].map(maxSteps)).toEqual([1, 2, 4, 5, 8]);
    // The fifth of eight: c4, c6, c5.
    expect(run(8, 4).steps.map((s) => s.revision)).toEqual(['c4', 'c6', 'c5']);
  });

  it('finds out a bad that is not slower than good, measuring it last', () => {
    for (const n of [1, 2, 8, 13]) {
      const { next, steps } = run(n, n);
      expect(next).toEqual({ kind: 'none' });
      expect(steps.length).toBeLessThanOrEqual(maxSteps(n));
      expect(steps[steps.length - 1]).toEqual({ revision: `c${n}`, label: 'not_slower' });
    }
  });

  it('stops at a step without a verdict, with the revisions the first slower one is still among', () => {
    const r = line(8);
    expect(nextStep(r, [{ revision: 'c4', label: 'unknown' }])).toEqual({ kind: 'stuck', revision: 'c4', range: r });
    const steps: StepVerdict[] = [
      { revision: 'c4', label: 'not_slower' },
      { revision: 'c6', label: 'slower' },
      { revision: 'c5', label: 'unknown' },
    ];
    expect(nextStep(r, steps)).toEqual({ kind: 'stuck', revision: 'c5', range: ['c5', 'c6'] });
  });

  it('refuses steps it could not have chosen', () => {
    expect(() => nextStep([], [])).toThrow(/no revision/);
    expect(() => nextStep(line(3), [{ revision: 'x', label: 'slower' }])).toThrow(/not on the line/);
    expect(() =>
      nextStep(line(8), [
        { revision: 'c3', label: 'slower' },
        { revision: 'c5', label: 'not_slower' },
      ]),
    ).toThrow(/not slower after a later revision/);
  });
});
