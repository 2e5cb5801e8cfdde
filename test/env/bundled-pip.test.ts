// The interpreter's bundled pip wheels (src/env/bundled-pip.ts): what a real interpreter reports, and an
// interpreter whose answer is not a list of wheel files that exist, which must fall back to `python -m venv`.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledWheels } from '../../src/env/bundled-pip.ts';
import { tmpdir } from '../helpers.ts';

/** A fake interpreter: a script that prints `answer` whatever it is asked. */
function fake(answer: string): string {
  const file = path.join(tmpdir(), 'python');
  fs.writeFileSync(file, `#!/bin/sh\nprintf '%s' '${answer}'\n`, { mode: 0o755 });
  return file;
}

describe('the bundled pip wheels', () => {
  it("finds the real interpreter's pip wheel among files that exist", async () => {
    const w = await bundledWheels('python3');
    expect(w).not.toBeNull();
    expect(path.basename(w!.pip)).toMatch(/^pip-[\d.]+-py3-none-any\.whl$/);
    expect(w!.all).toContain(w!.pip);
    for (const f of w!.all) expect(fs.statSync(f).isFile()).toBe(true);
  });

  it('falls back (null) on an answer that is not JSON, names no pip, names a missing file, or holds a non-string', async () => {
    expect(await bundledWheels(fake('not json'))).toBeNull();
    expect(await bundledWheels(fake('["/etc/hostname"]'))).toBeNull();
    expect(await bundledWheels(fake('["/nonexistent/pip-1.0-py3-none-any.whl"]'))).toBeNull();
    expect(await bundledWheels(fake('[1, {"a": 2}]'))).toBeNull();
    expect(await bundledWheels('/nonexistent/python')).toBeNull();
  });
});
