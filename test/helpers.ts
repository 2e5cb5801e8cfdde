// Test helpers: run the real CLI in a subprocess, make temporary directories, find the reference data.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { loadResults } from '../src/results/load.ts';
import type { Results } from '../src/results/model.ts';

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Fixture directory. */
export const FIXTURES = path.join(ROOT, 'test/fixtures');
/** The reference data the project grew from (reference/README.md). */
export const REFERENCE_DIR = path.join(ROOT, 'reference');
/** The seed's results file. */
export const PREDECESSOR_RESULTS = path.join(REFERENCE_DIR, 'resnet18_gpu.results.json');

/** Runs `benchgrid ARGS` as a user would, never throwing; returns exit code and output. */
export async function cli(args: string[], opts: { cwd?: string; env?: Record<string, string>; timeout?: number } = {}) {
  const r = await execa(process.execPath, [path.join(ROOT, 'bin/benchgrid.js'), ...args], {
    cwd: opts.cwd ?? ROOT,
    env: { NO_COLOR: '1', ...opts.env },
    reject: false,
    timeout: opts.timeout ?? 120_000,
    stdin: 'ignore',
  });
  return { code: r.exitCode ?? -1, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

/** A fresh temporary directory, removed by the caller or left for the OS. */
export function tmpdir(prefix = 'benchgrid-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes a file under a directory, creating parents; returns its path. */
export function write(dir: string, name: string, content: string | Buffer): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

/**
 * The interpreter of the resnet18 specs' `main` environment (built by `benchgrid env build`, as
 * .ci/run does), or $BENCHGRID_TEST_PYTHON. Tests that run cells use it with --python.
 */
export async function testPython(): Promise<string> {
  if (process.env.BENCHGRID_TEST_PYTHON) return process.env.BENCHGRID_TEST_PYTHON;
  const { loadDeclaredSpec } = await import('../src/spec/load.ts');
  const { resolveEnv } = await import('../src/env/build.ts');
  const spec = await loadDeclaredSpec(path.join(ROOT, 'specs/resnet18_cpu.yaml'));
  const env = await resolveEnv(spec.environments.main);
  if (!env.built)
    throw new Error(
      `the test environment is not built: run \`node bin/benchgrid.js env build specs/resnet18_cpu.yaml\` (it goes to ${env.dir})`,
    );
  return env.python;
}

/**
 * `benchgrid run SPEC --out DIR` with the test interpreter into a fresh folder, which must exit 0; the folder
 * and its results (for the tests that run a fixture spec once in `beforeAll` and read its cells).
 */
export async function runSpec(spec: string, timeout: number): Promise<{ out: string; results: Results }> {
  const out = path.join(tmpdir(), 'run');
  const r = await cli(['run', spec, '--out', out, '--python', await testPython()], { timeout });
  // vitest is imported here, not at the top: scripts/test-python.mjs loads this module outside vitest for
  // testPython, and vitest refuses to be imported there.
  const { expect } = await import('vitest');
  expect(r.code, r.stderr).toBe(0);
  return { out, results: loadResults(path.join(out, 'results.json')) };
}

/**
 * A spec's ResNet-18 subject, as the YAML lines under `subjects:`: random weights, 32x32 images, the site
 * `layer2`; `inputs` adds fields to its inputs (e.g. ', stimuli: 4, batch_size: 2').
 */
export function resnet18Subject(inputs = ''): string {
  return `  resnet18:
    label: ResNet-18
    model: { builder: torchvision, name: resnet18, seed: 0 }
    inputs: { kind: image, shape: [1, 3, 32, 32], seed: 0${inputs} }
    sites: { layer2: layer2 }`;
}

/**
 * The `sleep 3600` children that the faulty `spawns` adapter started for results under `dir` (each writes
 * its child's pid to RESULT.sleeper) and that still run. Other tests start the same fixture at the same
 * time, so a check of every `sleep 3600` on the machine would see their children too. Throws when `dir`
 * holds no pid at all: a test that found no child proves nothing about killing it.
 */
export function sleepersLeftUnder(dir: string): string[] {
  const pids = (fs.readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.sleeper'))
    .map((f) => fs.readFileSync(path.join(dir, f), 'utf8').trim());
  if (pids.length === 0) throw new Error(`no *.sleeper file under ${dir}: the spawns adapter did not start its child`);
  return pids.filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() === 'sleep 3600';
    } catch {
      return false;
    }
  });
}

/** Pids of the processes whose command line is exactly `cmdline` (to prove a killed tree left nothing). */
export function processesRunning(cmdline: string): string[] {
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').trim() === cmdline;
      } catch {
        return false;
      }
    });
}
