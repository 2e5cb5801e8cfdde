// The tidy table as text: CSV (RFC 4180) and JSON Lines, the two formats pandas reads in one call. Pure.
// The quoting is written here rather than taken from a CSV package: RFC 4180 output is a few lines, and
// the values need this sink's own guards (below) that a generic writer would not apply.
import { INVISIBLE, unicodeEscape } from '../util/escape.ts';
import { TIDY_COLUMNS, type TidyRow, type TidyValue } from './tidy.ts';

/**
 * The rows as CSV: a header line of the column names, then one record per row. Quoting is RFC 4180's; the
 * lines end in LF, not its CRLF: every CSV reader takes either, and the CLI's terminal guard (src/util/
 * terminal.ts) would show a CR on stdout as an escape, so stdout and `--out` get the same bytes this way.
 */
export function toCsv(rows: readonly TidyRow[]): string {
  const lines = [TIDY_COLUMNS.map(csvField), ...rows.map((r) => TIDY_COLUMNS.map((k) => csvField(r[k])))];
  return lines.map((fields) => fields.join(',') + '\n').join('');
}

/** The rows as JSON Lines: one object per line, keys in column order, numbers as numbers, missing as null. */
export function toJsonl(rows: readonly TidyRow[]): string {
  // JSON.stringify escapes C0 controls but writes C1 and bidirectional controls as they are; as \u escapes
  // they parse back to the same string and cannot act on a terminal the lines are printed to.
  return rows
    .map((r) => JSON.stringify(r, TIDY_COLUMNS as unknown as string[]).replace(INVISIBLE, unicodeEscape) + '\n')
    .join('');
}

/**
 * One CSV field. Missing is empty; a number is written as JavaScript prints it (shortest round trip) and
 * a non-finite one as empty. Text is data from a results file, so it is never obeyed: control and
 * invisible characters become `\u001b`-style escapes (no terminal control, and one line per record, so no
 * field ever needs a quoted line break), and a value a spreadsheet would run as a formula (starting with
 * = + - @) gets a leading `'` (OWASP's advice). Then it is quoted where RFC 4180 requires, its quotes doubled.
 */
export function csvField(v: TidyValue): string {
  if (v === null) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const safe = (/^[=+\-@]/.test(v) ? `'${v}` : v).replace(INVISIBLE, unicodeEscape);
  return /[",]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
