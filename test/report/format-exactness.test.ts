// How every report writes a cell whose write does not move the output, and a decoder cell's task-level agreement.
import { describe, expect, it } from 'vitest';
import { agreementText, exactMark, exactnessCell, exactText, vacuousText } from '../../src/report/format.ts';
import { verdictCell } from './verdict-cell.ts';

describe('a vacuous cell', () => {
  it("reads vacuous with the guard's figure, never as agreement", () => {
    const c = verdictCell({
      exact: 'vacuous',
      max_abs_diff: 0,
      effect: { max_abs_diff: 3.1e-9, vacuous: true, top1_agreement: 1, tv_distance: 0 },
    });
    expect(exactnessCell(c)).toBe(
      'vacuous (the write does not move the output: max abs diff 3.1e-9 from the unwritten output)',
    );
    expect(
      vacuousText(
        verdictCell({
          exact: 'vacuous',
          effect: { max_abs_diff: null, vacuous: true, top1_agreement: 1, first_divergence: null },
        }),
      ),
    ).toBe('vacuous (the write does not move the output: every generated token the same as without the write)');
    expect(exactText('vacuous')).toBe('vacuous (the write does not move the output)');
    expect(exactMark('vacuous')).toBe('?');
  });
});

describe('a decoder cell', () => {
  it('shows top-1 agreement and TV distance beside the max abs diff', () => {
    const c = verdictCell({
      exact: 'close',
      max_abs_diff: 2.2e-7,
      agreement: { top1_agreement: 1, tv_distance: 3.1e-8 },
    });
    expect(exactnessCell(c)).toBe('close (max abs diff 2.2e-7; top-1 1.00, TV 3.1e-8)');
  });

  it('shows where generated tokens part, or that none does', () => {
    expect(
      exactnessCell(
        verdictCell({
          exact: 'mismatch',
          max_abs_diff: 812,
          agreement: { top1_agreement: 0.8125, first_divergence: 3 },
        }),
      ),
    ).toBe('mismatch (max abs diff 812; tokens part from new token 4, top-1 0.81)');
    expect(agreementText({ top1_agreement: 1, first_divergence: null })).toBe('no token parts, top-1 1.00');
  });

  it('is bit-exact alone when bit for bit the same', () => {
    expect(
      exactnessCell(verdictCell({ exact: 'bit', max_abs_diff: 0, agreement: { top1_agreement: 1, tv_distance: 0 } })),
    ).toBe('bit-exact');
  });
});
