// Which interpreter runs each environment's cells: `--python PATH`, or the cached virtual environment.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { EXIT, UserError } from '../errors.ts';
import type { Spec } from '../spec/types.ts';
import { MARKER } from './build.ts';
import { ensureEnv } from './layered.ts';
import { readLock } from './lock.ts';
import { duringBuilds, interrupted } from './interrupt.ts';
import { dict } from '../util/dict.ts';

/**
 * Environment name -> interpreter path, for the environments the given cells use. An environment other
 * than the spec's default that cannot be built (a release pinned by `versions` that does not install
 * next to the spec's torch, an index that is down) is left out and listed in `failed` with why: its
 * cells get an error status and the run goes on. The default environment failing stops the run, since
 * nothing could be measured against it.
 */
export async function interpreters(
  spec: Spec,
  envNames: Set<string>,
  python: string | undefined,
  log: (s: string) => void,
): Promise<{ pythons: Record<string, string>; failed: Record<string, string> }> {
  const out = dict<string>();
  const failed = dict<string>();
  if (python) {
    if (!fs.existsSync(python)) throw new UserError(`--python ${python}: no such file.`);
    const layered = [...envNames].filter((n) => spec.environments[n]?.layer).sort();
    if (layered.length > 0) {
      throw new UserError(
        `--python runs every environment with one interpreter, so the environments layered over another (${layered.join(', ')}: the releases of a versioned tool, or environments declared with 'over') would all run what that interpreter has installed. Run without --python, or select cells of one environment with --only.`,
      );
    }
    for (const name of envNames) out[name] = python;
    return { pythons: out, failed };
  }
  // An environment the spec's lock (SPEC.lock.json) names is built from it.
  const lock = readLock(spec.file);
  const locks = lock ? { lock, specFile: spec.file } : null;
  // SIGINT/SIGTERM stop the builds as they stop `env build` (interrupt.ts): exit 130, nothing run yet.
  await duringBuilds(async () => {
    for (const name of envNames) {
      const env = spec.environments[name];
      if (!env) {
        // A spec without environments runs on the python3 on PATH (tests and quick experiments).
        out[name] = 'python3';
        continue;
      }
      try {
        const resolved = await ensureEnv(spec.environments, name, log, locks);
        markUsed(resolved.dir);
        out[name] = resolved.python;
      } catch (error) {
        if (name === spec.defaultEnvironment || interrupted()) throw error;
        failed[name] = (error as Error).message;
        log(
          `environment ${name} could not be built; its cells are recorded as errors and the run goes on: ${(error as Error).message.split('\n')[0]}`,
        );
      }
    }
  });
  return { pythons: out, failed };
}

/** Refuses a CUDA run where torch sees no GPU, before any cell starts, with what to do instead. */
export async function checkCuda(python: string): Promise<void> {
  let line: string;
  try {
    const r = await execa(
      python,
      ['-c', 'import torch; print(torch.__version__, torch.cuda.is_available(), torch.cuda.device_count())'],
      { timeout: 120_000, env: { HF_HUB_OFFLINE: '1' } },
    );
    line = r.stdout.trim().split('\n').pop() ?? '';
  } catch (error) {
    throw new UserError(
      `cannot import torch with ${python}: ${(error as Error).message.split('\n')[0]}`,
      EXIT.runFailed,
    );
  }
  const [version, available] = line.split(' ');
  if (available !== 'True') {
    throw new UserError(
      `this spec runs on cuda, but torch ${version} (${python}) sees no CUDA device on this machine. Run it where there is a GPU (see \`benchgrid export\`), or measure on the CPU with --device cpu.`,
    );
  }
}

/** A run used this environment: its marker's time is what `env prune --older-than` reads as last use. */
function markUsed(dir: string): void {
  const now = new Date();
  try {
    fs.utimesSync(path.join(dir, MARKER), now, now);
  } catch {
    // A read-only cache (a shared environment directory) still runs; prune then sees the build time.
  }
}
