// The built entry point started by path (`node dist/cli.js ...`, as a CI step may be written) is the
// same program as `benchgrid ...`: same output, same exit code. It once ignored its arguments and
// exited 0 unless argv[1] ended in `benchgrid` or `cli.ts`, so such a CI step always passed.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, ROOT, tmpdir, write } from '../helpers.ts';

const DIST = path.join(ROOT, 'dist', 'cli.js');

/** Newest modification time of the sources, as bin/benchgrid.js judges dist/ fresh. */
function newestSource(dir: string): number {
  return fs.readdirSync(dir, { withFileTypes: true }).reduce((n, e) => {
    const p = path.join(dir, e.name);
    return Math.max(n, e.isDirectory() ? newestSource(p) : e.name.endsWith('.ts') ? fs.statSync(p).mtimeMs : 0);
  }, 0);
}

beforeAll(async () => {
  // A fresh clone has dist/ from `npm ci` (the prepare script); a checkout being edited may not.
  if (!fs.existsSync(DIST) || fs.statSync(DIST).mtimeMs < newestSource(path.join(ROOT, 'src'))) {
    await execa('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT });
  }
}, 300_000);

async function both(args: string[], cwd: string) {
  const env = { NO_COLOR: '1' };
  const opts = { cwd, env, reject: false, stdin: 'ignore' as const };
  const byPath = await execa(process.execPath, [DIST, ...args], opts);
  const byBin = await execa(process.execPath, [path.join(ROOT, 'bin/benchgrid.js'), ...args], opts);
  return { byPath, byBin };
}

describe('node dist/cli.js behaves exactly like benchgrid', () => {
  const dir = tmpdir('benchgrid-entry-path-');
  const broken = write(dir, 'broken.yaml', 'benchgrid: 1\nname: x\n');

  it.each([
    [['validate', '/nonexistent.yaml'], 2],
    [['validate', broken], 2],
    [['validate', path.join(FIXTURES, 'specs/tiny.yaml')], 0],
    [['plan', path.join(FIXTURES, 'specs/tiny.yaml'), '--json'], 0],
    [['--version'], 0],
    [['no-such-command'], 2],
  ])('%j exits %i with the same output either way', async (args, code) => {
    const { byPath, byBin } = await both(args, dir);
    expect(byPath.exitCode, byPath.stderr).toBe(code);
    expect(byBin.exitCode).toBe(code);
    expect(byPath.stdout).toBe(byBin.stdout);
    expect(byPath.stderr).toBe(byBin.stderr);
    expect(byPath.stdout + byPath.stderr).not.toBe('');
  });

  it('through a symbolic link to dist/cli.js too (how npm installs a bin)', async () => {
    const link = path.join(dir, 'benchgrid-link.js');
    fs.symlinkSync(DIST, link);
    const r = await execa(process.execPath, [link, 'validate', '/nonexistent.yaml'], {
      reject: false,
      env: { NO_COLOR: '1' },
    });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/nonexistent\.yaml/);
  });
});
