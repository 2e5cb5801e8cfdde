// A cell's effect-size guard and agreement come from its processes' exactness checks: the weakest effect any
// process saw, the worst agreement; `vacuous` ranks as no agreement, and the figures load back from a file.
import { describe, expect, it } from 'vitest';
import {
  cellAgreement,
  cellEffect,
  parseAgreement,
  parseEffect,
  VERDICT_RANK,
  worstVerdict,
} from '../../src/results/effect.ts';
import type { ProcessResult } from '../../src/records/outcome.ts';

const process = (exact: Partial<NonNullable<ProcessResult['exact']>> | null) =>
  ({
    exact: exact && { verdict: 'bit', max_abs_diff: 0, reference: 'hooks', rtol: 1e-5, atol: 1e-6, ...exact },
  }) as ProcessResult;
const at = { file: 'results.json', path: '/gpt2/groups/x' };

describe('the verdict of a cell', () => {
  it('is its processes worst, with vacuous below close and above mismatch', () => {
    expect(worstVerdict(['bit', 'vacuous', 'close'])).toBe('vacuous');
    expect(worstVerdict(['vacuous', 'mismatch'])).toBe('mismatch');
    expect(worstVerdict([null, null])).toBeNull();
    expect(VERDICT_RANK.close).toBeLessThan(VERDICT_RANK.vacuous);
  });
});

describe("a cell's guard and agreement", () => {
  it('takes the weakest effect any process saw: vacuous if one was', () => {
    const effect = cellEffect([
      process({ effect: { max_abs_diff: 0.5, vacuous: false, top1_agreement: 0.25, tv_distance: 0.1 } }),
      process({ effect: { max_abs_diff: 1e-9, vacuous: true, top1_agreement: 1, tv_distance: 0 } }),
    ]);
    expect(effect).toEqual({ max_abs_diff: 1e-9, vacuous: true, top1_agreement: 1, tv_distance: 0 });
  });

  it('takes the worst agreement, and the earliest new token where a generation parted', () => {
    const agreement = cellAgreement([
      process({ agreement: { top1_agreement: 0.75, first_divergence: 6 } }),
      process({ agreement: { top1_agreement: 0.5, first_divergence: 2 } }),
      process({ agreement: { top1_agreement: 1, first_divergence: null } }),
    ]);
    expect(agreement).toEqual({ top1_agreement: 0.5, first_divergence: 2 });
    expect(cellAgreement([process({ agreement: { top1_agreement: 1, first_divergence: null } })])).toEqual({
      top1_agreement: 1,
      first_divergence: null,
    });
  });

  it('is null for cells whose processes recorded none (contracts that read, older results)', () => {
    expect(cellEffect([process({}), process(null)])).toBeNull();
    expect(cellAgreement([process({ effect: null, agreement: null })])).toBeNull();
  });
});

describe('loading the figures', () => {
  it('reads them back as written', () => {
    expect(parseEffect({ max_abs_diff: 0, vacuous: true, first_divergence: null, top1_agreement: 1 }, at)).toEqual({
      max_abs_diff: 0,
      vacuous: true,
      first_divergence: null,
      top1_agreement: 1,
    });
    expect(parseAgreement({ top1_agreement: 0.5, tv_distance: 0.25 }, at)).toEqual({
      top1_agreement: 0.5,
      tv_distance: 0.25,
    });
    expect(parseEffect(undefined, at)).toBeNull();
  });

  it('refuses figures that are not what they claim, naming the field', () => {
    expect(() => parseEffect({ max_abs_diff: 0 }, at)).toThrow(/\/gpt2\/groups\/x\.vacuous: expected true or false/);
    expect(() => parseAgreement({ top1_agreement: 1.5 }, at)).toThrow(/top1_agreement.*a fraction from 0 to 1/);
    expect(() => parseAgreement({ first_divergence: -1 }, at)).toThrow(/first_divergence/);
  });
});
