// Asking for CUDA where there is none is a clear message before anything runs, not a crash.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, testPython, tmpdir } from '../helpers.ts';

describe('--device cuda without a GPU', () => {
  it('says what to do and exits 2 without starting a cell', async () => {
    const out = path.join(tmpdir(), 'run');
    const r = await cli([
      'run',
      path.join(FIXTURES, 'specs/tiny.yaml'),
      '--device',
      'cuda',
      '--out',
      out,
      '--python',
      await testPython(),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /this spec runs on cuda, but torch .* sees no CUDA device on this machine\. Run it where there is a GPU .* or measure on the CPU with --device cpu\./,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
