// Number and text formatting shared by every report format (the seed layout's page rules, docs/report.md).
import type { CellResult, Verdict } from '../results/model.ts';
import type { Agreement } from '../results/effect.ts';
import { gcSignificant } from '../results/gc.ts';
import { forHtml, forMarkdown } from '../util/escape.ts';

/**
 * A duration in the seed layout's style: milliseconds with two decimals below one second, seconds with two
 * decimals from 1000 ms on. The switch is decided on the rounded value, so 999.996 ms reads `1.00 s`,
 * never `1000.00 ms`.
 */
export function formatMs(ms: number): string {
  if (Math.abs(Number(ms.toFixed(2))) < 1000) return `${ms.toFixed(2)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/** `median (min to max)`, each part formatted on its own: `1.06 s (1.05 s to 1.19 s)`. */
export function formatRange(median: number, min: number, max: number): string {
  return `${formatMs(median)} (${formatMs(min)} to ${formatMs(max)})`;
}

/** A cell's `median (min to max)`, or null when it has no timing. */
export function cellRange(c: CellResult): string | null {
  if (c.median_ms === null) return null;
  // The garbage a call leaves, collected between samples, where it is a noticeable share (docs/protocol.md).
  const gc = gcSignificant(c.gc_median_ms, c.median_ms) ? ` +gc ${formatMs(c.gc_median_ms!)}` : '';
  return formatRange(c.median_ms, c.min_ms ?? c.median_ms, c.max_ms ?? c.median_ms) + gc;
}

/**
 * A page row's exactness column: `bit-exact`, `close (max abs diff 2.2e-7)`, `mismatch (max abs diff 0.17)`,
 * `not compared` (the reference tool, raw, a contract without a comparable result); empty where the cell
 * has no measured result. A decoder output adds its task-level agreement beside the difference
 * (`close (max abs diff 2.2e-7; top-1 1.00, TV 3.1e-8)`), and a cell whose write does not move the output
 * reads `vacuous (...)` with the guard's figure. A reduced-precision cell re-judged at float32 says what the
 * control found: `degraded (precision: max abs diff 0.031 in bfloat16; bit-exact at float32)`, or a mismatch
 * that persists, `mismatch (max abs diff 0.0078; at float32 too: max abs diff 0.01)`.
 */
export function exactnessCell(c: CellResult | null): string {
  if (c?.status !== 'ok' || c.exact === undefined) return '';
  if (c.exact === null) return 'not compared';
  if (c.exact === 'vacuous') return vacuousText(c);
  if (c.exact === 'degraded') return degradedText(c);
  if (c.exact === 'bit') return exactText(c.exact);
  const control = c.precision_control;
  const atFloat32 =
    control && control.verdict === 'mismatch' && c.exact === 'mismatch'
      ? `at float32 too${control.max_abs_diff === null ? '' : `: max abs diff ${formatDiff(control.max_abs_diff)}`}`
      : null;
  const parts = [
    c.max_abs_diff === null ? null : `max abs diff ${formatDiff(c.max_abs_diff)}`,
    agreementText(c.agreement),
    atFloat32 ?? controlFailed(control),
  ].filter((p) => p);
  return parts.length ? `${c.exact} (${parts.join('; ')})` : exactText(c.exact);
}

/**
 * `float32 control failed: RuntimeError: ...`: a control that could not run leaves the verdict at the subject's
 * precision, and a reader must see that the verdict was not re-judged and why (its first line, at most 80 characters).
 */
function controlFailed(control: CellResult['precision_control']): string | null {
  if (!control || control.verdict !== null || !control.error) return null;
  const line = control.error.split('\n')[0];
  return `float32 control failed: ${line.length > 80 ? `${line.slice(0, 79)}…` : line}`;
}

/**
 * `degraded (precision: max abs diff 0.031 in bfloat16; bit-exact at float32)`: the difference at the subject's
 * precision and what the control found at float32 (src/results/precision-control.ts).
 */
export function degradedText(c: CellResult): string {
  const control = c.precision_control;
  const parts = [
    c.max_abs_diff === null
      ? null
      : `max abs diff ${formatDiff(c.max_abs_diff)}${control ? ` in ${control.from}` : ''}`,
    agreementText(c.agreement),
    !control
      ? null
      : control.verdict === 'bit'
        ? 'bit-exact at float32'
        : `close at float32${control.max_abs_diff === null ? '' : ` (max abs diff ${formatDiff(control.max_abs_diff)})`}`,
  ].filter((p) => p);
  return `degraded (precision${parts.length ? `: ${parts.join('; ')}` : ''})`;
}

/**
 * `vacuous (the write does not move the output: max abs diff 3.1e-9 from the unwritten output)`: what the
 * effect-size guard measured, so a reader sees how small the write was (src/results/effect.ts).
 */
export function vacuousText(c: CellResult): string {
  const e = c.effect;
  const figures = !e
    ? null
    : typeof e.max_abs_diff === 'number'
      ? `max abs diff ${formatDiff(e.max_abs_diff)} from the unwritten output`
      : 'first_divergence' in e
        ? 'every generated token the same as without the write'
        : null;
  return `vacuous (the write does not move the output${figures ? `: ${figures}` : ''})`;
}

/** `top-1 0.97, TV 3.1e-3` for logits, `tokens part from new token 3, top-1 0.81` for a generation; '' otherwise. */
export function agreementText(a: Agreement | null | undefined): string {
  if (!a) return '';
  const parts: string[] = [];
  if ('first_divergence' in a)
    parts.push(
      a.first_divergence === null || a.first_divergence === undefined
        ? 'no token parts'
        : `tokens part from new token ${a.first_divergence + 1}`,
    );
  if (typeof a.top1_agreement === 'number') parts.push(`top-1 ${a.top1_agreement.toFixed(2)}`);
  if (typeof a.tv_distance === 'number') parts.push(`TV ${formatDiff(a.tv_distance)}`);
  return parts.join(', ');
}

/**
 * A difference in two significant figures, small ones always in exponent form: JavaScript's own number
 * printing switches at 1e-6, which put `0.0000023` beside `5.8e-7` in one column. Whole numbers (token ids
 * apart) are shown whole.
 */
export function formatDiff(d: number): string {
  if (Number.isInteger(d)) return String(d);
  if (Math.abs(d) < 1e-3) return d.toExponential(1);
  return String(Number(d.toPrecision(2)));
}

/**
 * The one-character exactness mark of the terminal grid: `=` bit, `~` close, `≈` degraded (equal at float32),
 * `!` mismatch, `?` vacuous.
 */
export function exactMark(v: Verdict | undefined): string {
  return v === 'bit'
    ? '='
    : v === 'close'
      ? '~'
      : v === 'degraded'
        ? '≈'
        : v === 'mismatch'
          ? '!'
          : v === 'vacuous'
            ? '?'
            : '';
}

/** The exactness verdict in words, for tables: empty when the file does not say. */
export function exactText(v: Verdict | undefined): string {
  if (v === undefined) return '';
  if (v === null) return 'not compared';
  if (v === 'vacuous') return 'vacuous (the write does not move the output)';
  if (v === 'degraded') return 'degraded (precision)';
  return v === 'bit' ? 'bit-exact' : v === 'close' ? 'close (within tolerance)' : 'mismatch';
}

/** Legend of the exactness marks, printed under grids. */
export const MARK_LEGEND =
  "= bit-exact, ~ within tolerance, ≈ degraded (differs only by precision: agrees at float32), ! mismatch (against the group's reference tool), ? vacuous (the write does not move the output: agreement proves nothing)";

/** The first non-empty line of a text (reasons can carry tracebacks). */
export function firstLine(text: string | null | undefined): string {
  const line = (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '');
  return line ?? '';
}

/** A byte count in MiB with one decimal. */
export function formatBytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A ratio as a percentage with one decimal: 0.0502 -> `5.0%`. */
export function formatPercent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

/** A value in markdown, a table cell included: the markdown sink of src/util/escape.ts. */
export const mdCell = forMarkdown;

/** A value in HTML, element content or a quoted attribute: the HTML sink of src/util/escape.ts. */
export const escapeHtml = forHtml;
