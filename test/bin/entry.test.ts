// bin/benchgrid.js runs the compiled dist/cli.js when it is as new as every source, else the sources through tsx.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { ROOT, tmpdir, write } from '../helpers.ts';

/** A copy of the entry point in a fake checkout whose dist/ and src/ each say which one ran. */
function checkout() {
  const dir = tmpdir('benchgrid-entry-');
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.copyFileSync(path.join(ROOT, 'bin/benchgrid.js'), path.join(dir, 'bin/benchgrid.js'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  write(dir, 'package.json', '{ "type": "module" }\n');
  write(dir, 'src/cli.ts', "const from: string = 'sources';\nconsole.log(from);\n");
  write(dir, 'dist/cli.js', "console.log('dist');\n");
  return dir;
}

const run = (dir: string, env: Record<string, string> = {}) =>
  execa(process.execPath, [path.join(dir, 'bin/benchgrid.js')], { env, reject: false });

describe('bin/benchgrid.js', () => {
  it('runs dist/cli.js when it is newer than every source file', async () => {
    const dir = checkout();
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, 'src/cli.ts'), old, old);
    expect((await run(dir)).stdout).toBe('dist');
  });

  it('runs the sources when a source is newer than dist/, when dist/ is missing, or with BENCHGRID_FROM_SOURCE=1', async () => {
    const dir = checkout();
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, 'dist/cli.js'), old, old);
    expect((await run(dir)).stdout).toBe('sources');
    fs.utimesSync(path.join(dir, 'src/cli.ts'), old, new Date(old.getTime() - 60_000));
    expect((await run(dir, { BENCHGRID_FROM_SOURCE: '1' })).stdout).toBe('sources');
    fs.rmSync(path.join(dir, 'dist'), { recursive: true });
    expect((await run(dir)).stdout).toBe('sources');
  });
});
