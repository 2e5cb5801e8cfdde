// The tidy table as CSV (RFC 4180 quoting) and JSON Lines: values come out as data, never as markup or commands.
import { describe, expect, it } from 'vitest';
import { csvField, toCsv, toJsonl } from '../../src/report/tidy-text.ts';
import { TIDY_COLUMNS, type TidyRow } from '../../src/report/tidy.ts';

/** A row with every column missing but those given. */
function row(values: Partial<TidyRow>): TidyRow {
  return { ...Object.fromEntries(TIDY_COLUMNS.map((k) => [k, null])), ...values } as TidyRow;
}

describe('a CSV field', () => {
  it('is empty for a missing value or a number that is not finite, and a number in full otherwise', () => {
    expect([csvField(null), csvField(Infinity), csvField(NaN)]).toEqual(['', '', '']);
    expect([csvField(2.3), csvField(1.1347826086956523), csvField(0), csvField(1e-7)]).toEqual([
      '2.3',
      '1.1347826086956523',
      '0',
      '1e-7',
    ]);
    expect([csvField(true), csvField(false)]).toEqual(['true', 'false']);
  });

  it('is quoted where it holds a comma or a quote, its quotes doubled (RFC 4180)', () => {
    expect(['plain text; with = inside', 'a, b', 'say "no"'].map(csvField)).toEqual([
      'plain text; with = inside',
      '"a, b"',
      '"say ""no"""',
    ]);
  });

  it('shows control characters as escapes, so a record is one line and a terminal is never driven', () => {
    expect(csvField('line one\nline two')).toBe('line one\\u000aline two');
    expect(csvField('\u001b]0;title\u0007red\u009b')).toBe('\\u001b]0;title\\u0007red\\u009b');
  });

  it('starts a text a spreadsheet would run as a formula with a quote', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(['+1', '-1', '@SUM(A1)'].map(csvField)).toEqual(["'+1", "'-1", "'@SUM(A1)"]);
  });
});

describe('the CSV of some rows', () => {
  it('is a header of the columns, then one LF-ended line per row', () => {
    const csv = toCsv([
      row({ cell: 'A/c/t/s', median_ms: 2.5, status: 'ok' }),
      row({ cell: 'A/c/u/s', status: 'unsupported', reason: 'no, never' }),
    ]);
    const lines = csv.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(TIDY_COLUMNS.join(','));
    expect(lines[3]).toBe('');
    expect(lines[1].split(',')).toHaveLength(TIDY_COLUMNS.length);
    expect(lines[2]).toContain(',unsupported,"no, never",');
  });
});

describe('the JSON Lines of some rows', () => {
  it('is one object per line with the columns in order, numbers as numbers and missing as null', () => {
    const text = toJsonl([
      row({ cell: 'A/c/t/s', median_ms: 2.5, x_raw_high: Infinity, x_raw_paired: true }),
      row({ cell: 'A/c/u/s' }),
    ]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    const first = JSON.parse(lines[0]);
    expect(Object.keys(first)).toEqual([...TIDY_COLUMNS]);
    expect(first).toMatchObject({ cell: 'A/c/t/s', median_ms: 2.5, x_raw_high: null, x_raw_paired: true, sweep: null });
  });

  it('writes C1 and bidirectional controls as escapes that parse back to the same text', () => {
    const reason = 'csi \u009b2J and \u202eevil';
    const line = toJsonl([row({ reason })]);
    expect(line).not.toMatch(/[\u009b\u202e]/);
    expect(JSON.parse(line).reason).toBe(reason);
  });
});
