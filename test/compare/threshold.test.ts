// --threshold is read one way by compare, bench-change and history: a percentage from 0 to 100, 2 when
// it is not given.
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLD, parseThreshold } from '../../src/compare/threshold.ts';
import { DEFAULT_SETTINGS } from '../../src/compare/compute.ts';
import { cli, tmpdir } from '../helpers.ts';

describe('parseThreshold', () => {
  it('reads a percentage as a fraction, with or without a percent sign', () => {
    expect(parseThreshold('2')).toBe(0.02);
    expect(parseThreshold(' 0.5% ')).toBe(0.005);
  });

  it("gives compare's default when the option is not given", () => {
    expect(parseThreshold(undefined)).toBe(DEFAULT_THRESHOLD);
    expect(DEFAULT_SETTINGS.threshold).toBe(DEFAULT_THRESHOLD);
  });

  it.each(['150', '100', '-1', 'lots', '', 'NaN', 'Infinity'])('refuses %j, naming the option and the value', (v) => {
    expect(() => parseThreshold(v)).toThrow(
      `--threshold: expected a percentage from 0 to 100, such as 2 or 0.5 (got ${JSON.stringify(v)}).`,
    );
  });
});

describe('history --threshold', () => {
  it('refuses 150 as compare does, before it reads any run', async () => {
    const r = await cli(['history', tmpdir(), '--out', tmpdir(), '--threshold', '150']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--threshold: expected a percentage from 0 to 100, such as 2 or 0.5 (got "150").');
  });
});
