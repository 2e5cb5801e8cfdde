// How every report writes a reduced-precision cell that the precision control re-judged at float32.
import { describe, expect, it } from 'vitest';
import { degradedText, exactMark, exactnessCell, exactText } from '../../src/report/format.ts';
import { controlledCell, verdictCell } from './verdict-cell.ts';

describe('a degraded cell', () => {
  it('reads degraded (precision) with its difference at its dtype and what float32 found', () => {
    const c = controlledCell('degraded', 0.03125, { from: 'bfloat16', verdict: 'bit', max_abs_diff: 0 });
    expect(exactnessCell(c)).toBe('degraded (precision: max abs diff 0.031 in bfloat16; bit-exact at float32)');
    const close = controlledCell('degraded', 0.002, { from: 'float16', verdict: 'close', max_abs_diff: 3e-7 });
    expect(degradedText(close)).toBe(
      'degraded (precision: max abs diff 0.002 in float16; close at float32 (max abs diff 3.0e-7))',
    );
    expect(exactText('degraded')).toBe('degraded (precision)');
    expect(exactMark('degraded')).toBe('≈');
  });
});

describe('a mismatch the control confirmed', () => {
  it('shows the float32 difference beside its own', () => {
    const c = controlledCell('mismatch', 0.0156, { from: 'bfloat16', verdict: 'mismatch', max_abs_diff: 0.01 });
    expect(exactnessCell(c)).toBe('mismatch (max abs diff 0.016; at float32 too: max abs diff 0.01)');
    expect(exactnessCell(verdictCell({ exact: 'mismatch', max_abs_diff: 0.01 }))).toBe('mismatch (max abs diff 0.01)');
  });
});

describe('a control that could not run', () => {
  it('says the verdict was not re-judged at float32, and why, in one short line', () => {
    const failed = { from: 'bfloat16', verdict: null, max_abs_diff: null } as const;
    const c = controlledCell('mismatch', 0.0156, {
      ...failed,
      error: 'RuntimeError: float32 weights do not fit\nTraceback ...',
    });
    expect(exactnessCell(c)).toBe(
      'mismatch (max abs diff 0.016; float32 control failed: RuntimeError: float32 weights do not fit)',
    );
    const long = controlledCell('close', 0.002, { ...failed, error: `ValueError: ${'x'.repeat(200)}` });
    expect(exactnessCell(long)).toMatch(/^close \(max abs diff 0\.002; float32 control failed: ValueError: x+…\)$/);
    expect(exactnessCell(long).length).toBeLessThanOrEqual(133);
  });
});
