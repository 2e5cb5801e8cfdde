// compare's noise threshold (the smallest change worth a label) and the percentage options, read one way
// by compare, bench-change and history, with the one default.
import { UserError } from '../errors.ts';

/** The smallest change worth a label when --threshold is not given, as a fraction (2%). */
export const DEFAULT_THRESHOLD = 0.02;

/** --threshold's help, the same for every command that takes it. */
export const THRESHOLD_HELP = `smallest change worth a label, in percent (default ${DEFAULT_THRESHOLD * 100}); the A/A noise raises it`;

/** A percentage option as a fraction: "2" -> 0.02; rejects anything but a number from 0 to 100. */
export function percent(option: string, value: string): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n >= 100) {
    throw new UserError(
      `${option}: expected a percentage from 0 to 100, such as 2 or 0.5 (got ${JSON.stringify(value)}).`,
    );
  }
  return n / 100;
}

/** --threshold as a fraction; the default when it is not given. */
export function parseThreshold(value: string | undefined): number {
  return value === undefined ? DEFAULT_THRESHOLD : percent('--threshold', value);
}
