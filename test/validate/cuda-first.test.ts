// Issue 41, third round: a cuda spec on a machine without a GPU driver is refused before any
// environment is built (13 GiB on a fresh machine), not after; export and Slurm, which prepare runs
// for other machines, are not refused.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  driverFacts,
  GPU_DRIVER_FILES,
  noCudaHere,
  refuseCudaBeforeBuilds,
  type DriverFacts,
} from '../../src/orchestrate/start.ts';
import { UserError } from '../../src/errors.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';

const linux = (present: string[] = []): DriverFacts => ({ platform: 'linux', present });

describe('noCudaHere: whether a machine can run CUDA, from its files alone', () => {
  it('refuses a Linux machine that shows no driver at all', () => {
    expect(noCudaHere(linux())).toMatch(
      /^this machine shows no GPU driver \(no \/proc\/driver\/nvidia\/version, no \/dev\/nvidia0\)$/,
    );
  });

  it('leaves the verdict to torch where any driver shows: NVIDIA, a container given a second GPU, WSL, ROCm', () => {
    for (const file of ['/proc/driver/nvidia/version', '/dev/nvidiactl', '/dev/dxg', '/dev/kfd'])
      expect(noCudaHere(linux([file])), file).toBeNull();
  });

  it('refuses macOS, and leaves Windows (whose drivers leave no such files) to torch', () => {
    expect(noCudaHere({ platform: 'darwin', present: [] })).toBe('macOS has no CUDA');
    expect(noCudaHere({ platform: 'win32', present: [] })).toBeNull();
  });

  it('reads the facts from the files it names, starting no program', () => {
    const asked: string[] = [];
    const facts = driverFacts((f) => {
      asked.push(f);
      return f === '/dev/kfd';
    });
    expect(asked).toEqual(GPU_DRIVER_FILES);
    expect(facts.present).toEqual(['/dev/kfd']);
  });
});

describe('refuseCudaBeforeBuilds', () => {
  const none = () => linux();

  it("throws the usage error (exit 2) today's refusal gives, with what to do", () => {
    let error: unknown;
    try {
      refuseCudaBeforeBuilds('cuda', undefined, none);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).exitCode).toBe(2);
    expect((error as UserError).message).toBe(
      'this spec runs on cuda, but this machine shows no GPU driver (no /proc/driver/nvidia/version, no /dev/nvidia0); nothing was built. Run it where there is a GPU (see `benchgrid export`), or measure on the CPU with --device cpu.',
    );
  });

  it('does not look at the machine for a CPU run, nor with --python (nothing is built; torch decides)', () => {
    const facts = () => {
      throw new Error('asked');
    };
    expect(() => refuseCudaBeforeBuilds('cpu', undefined, facts)).not.toThrow();
    expect(() => refuseCudaBeforeBuilds('cuda', '/usr/bin/python3', facts)).not.toThrow();
    expect(() => refuseCudaBeforeBuilds('cuda', undefined, () => linux(['/dev/nvidiactl']))).not.toThrow();
  });
});

describe.skipIf(noCudaHere(driverFacts()) === null)('a cuda spec on this machine, which has no GPU driver', () => {
  const spec = () => {
    const tiny = fs.readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8');
    const text = tiny.replace(/^device: cpu$/m, 'device: cuda');
    expect(text).not.toBe(tiny);
    return write(tmpdir(), 'tiny-cuda.yaml', text);
  };

  it('`run` exits at once with the refusal, and builds nothing', async () => {
    const cache = tmpdir();
    const out = path.join(tmpdir(), 'run');
    const r = await cli(['run', spec(), '--out', out], { env: { BENCHGRID_CACHE: cache } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('this spec runs on cuda, but this machine shows no GPU driver');
    expect(r.stderr).not.toMatch(/first, .* built|\n\s+at /);
    expect(fs.readdirSync(cache)).toEqual([]);
    expect(fs.existsSync(out)).toBe(false);
  });

  it('`export` still writes the bundle for a machine with a GPU', async () => {
    const out = path.join(tmpdir(), 'bundle');
    const r = await cli(['export', spec(), '--out', out], { env: { BENCHGRID_CACHE: tmpdir() } });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.existsSync(path.join(out, 'driver.py'))).toBe(true);
  });

  it('`run --executor slurm` goes on to Slurm (here: refused for want of sbatch, not of a GPU)', async () => {
    // PATH is an empty directory, so no sbatch is found even on a machine with Slurm (CI starts a one-node cluster).
    const r = await cli(
      ['run', '--executor', 'slurm', spec(), '--shared-dir', path.join(tmpdir(), 'shared'), '--no-wait'],
      { env: { BENCHGRID_CACHE: tmpdir(), PATH: tmpdir() } },
    );
    expect(r.stderr).toContain('sbatch is not on PATH');
    expect(r.stderr).not.toContain('runs on cuda');
  });
});
