// The tree is formatted and lint-clean, TypeScript by Biome and Python by ruff (scripts/lint.mjs, which installs
// the pinned ruff on first use), so `npm test`, what CI runs, fails on a formatting or lint error and names the files.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.ts';

describe('the source tree', () => {
  it('is formatted and lint-clean: `npm run format` fixes formatting and safe fixes, the rest is by hand', async () => {
    const r = await execa(process.execPath, [path.join(ROOT, 'scripts/lint.mjs')], {
      cwd: ROOT,
      reject: false,
      all: true,
    });
    const lines = (r.all ?? '').split('\n').filter((l) => l.trim() !== '');
    // One line per offending file, then the closing `lint: ...` line; anything else (ruff's install log) is not a finding.
    const offending = lines.filter((l) => /^\S+: /.test(l) && !l.startsWith('lint: ') && !l.startsWith('installing '));
    expect(offending).toEqual([]);
    expect(lines.at(-1), r.all).toBe('lint: clean');
    expect(r.exitCode).toBe(0);
  }, 600_000);
});
