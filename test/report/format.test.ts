// Number and text formatting follows the seed's page: two decimals, milliseconds below one second.
import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  exactMark,
  exactnessCell,
  firstLine,
  formatMs,
  formatRange,
  mdCell,
} from '../../src/report/format.ts';
import { inlineJson, inlineScript } from '../../src/report/html-assets.ts';
import { verdictCell } from './verdict-cell.ts';

describe('formatMs', () => {
  it('writes milliseconds with two decimals below 1000 ms', () => {
    expect(formatMs(0.755)).toBe('0.76 ms');
    expect(formatMs(2.3)).toBe('2.30 ms');
    expect(formatMs(98.55)).toBe('98.55 ms');
    expect(formatMs(999.99)).toBe('999.99 ms');
  });

  it('writes seconds with two decimals from 1000 ms on', () => {
    expect(formatMs(1000)).toBe('1.00 s');
    expect(formatMs(1059.18)).toBe('1.06 s');
    expect(formatMs(3606.27)).toBe('3.61 s');
    expect(formatMs(4195.65)).toBe('4.20 s');
  });

  it('decides on the rounded value, so nothing reads 1000.00 ms', () => {
    expect(formatMs(999.995)).not.toBe('1000.00 ms');
    expect(formatMs(999.996)).toBe('1.00 s');
  });

  it('formats median, min and max each on its own', () => {
    expect(formatRange(1059.18, 1046.07, 1192.38)).toBe('1.06 s (1.05 s to 1.19 s)');
    expect(formatRange(986.8, 969, 1013.13)).toBe('986.80 ms (969.00 ms to 1.01 s)');
  });
});

describe('marks and text', () => {
  it('marks bit, close and mismatch, and nothing when there is no verdict', () => {
    expect([
      exactMark('bit'),
      exactMark('close'),
      exactMark('mismatch'),
      exactMark(null),
      exactMark(undefined),
    ]).toEqual(['=', '~', '!', '', '']);
  });

  it("writes a page row's exactness with the difference it was judged on, and nothing for a cell without a measured result", () => {
    expect(exactnessCell(verdictCell({ exact: 'bit', max_abs_diff: 0 }))).toBe('bit-exact');
    expect(exactnessCell(verdictCell({ exact: 'close', max_abs_diff: 2.2351741790771484e-7 }))).toBe(
      'close (max abs diff 2.2e-7)',
    );
    expect(exactnessCell(verdictCell({ exact: 'mismatch', max_abs_diff: 0.17287975549697876 }))).toBe(
      'mismatch (max abs diff 0.17)',
    );
    // Between 1e-6 and 1e-3 JavaScript would print 0.0000023; one column keeps one form. Token ids stay whole.
    expect(exactnessCell(verdictCell({ exact: 'close', max_abs_diff: 2.2649765014648438e-6 }))).toBe(
      'close (max abs diff 2.3e-6)',
    );
    expect(exactnessCell(verdictCell({ exact: 'mismatch', max_abs_diff: 17292 }))).toBe(
      'mismatch (max abs diff 17292)',
    );
    expect(exactnessCell(verdictCell({ exact: null }))).toBe('not compared');
    expect(exactnessCell(verdictCell({ exact: undefined }))).toBe('');
    expect(exactnessCell(verdictCell({ status: 'unsupported' }))).toBe('');
    expect(exactnessCell(null)).toBe('');
  });

  it('takes the first non-empty line of a reason', () => {
    expect(firstLine('\n  RuntimeError: x\nTraceback')).toBe('RuntimeError: x');
    expect(firstLine(null)).toBe('');
  });

  it('escapes pipes and folds lines in markdown cells', () => {
    expect(mdCell('a | b\nc')).toBe('a \\| b c');
  });

  it('escapes HTML special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('keeps inlined JSON and scripts from closing their element', () => {
    const json = inlineJson({ s: '</script><!--' });
    expect(json).not.toContain('</');
    expect(JSON.parse(json)).toEqual({ s: '</script><!--' });
    expect(inlineScript('x = "</script>"')).toBe('x = "<\\/script>"');
  });
});
