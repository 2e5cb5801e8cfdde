// A reader that closes stdout early (`benchgrid run --help | head`, a pager quit) ends the output, not the
// command with a stack trace.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

/** Starts the CLI with its stdout closed by the reader before anything is read; resolves to its exit and stderr. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/benchgrid.js'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('stdout closed by its reader', () => {
  it('ends --help quietly with exit 0 (it was an unhandled EPIPE)', async () => {
    const r = await withClosedStdout(['run', '--help']);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.code).toBe(0);
  });

  it('lets a command that prints a lot finish its work with its own exit code', async () => {
    const r = await withClosedStdout(['plan', path.join(ROOT, 'specs/resnet18_cpu.yaml'), '--no-sizes']);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(r.code).toBe(0);
  });
});
