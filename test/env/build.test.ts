// Environments: cache keys, and a failed build names the requirement that failed.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failedRequirement, resolveEnv } from '../../src/env/build.ts';
import { NO_INDEX } from '../../src/spec/types.ts';
import { cli, tmpdir } from '../helpers.ts';
import { oneEnvSpec } from './fixtures.ts';

/** A one-cell spec whose only environment, `env`, installs `requirement`. */
function envSpec(dir: string, env: string, requirement: string): string {
  return oneEnvSpec(dir, `${env}-env.yaml`, { name: `${env}env`, title: `Environment ${env}`, env, requirement });
}

/** The default environment `main` on python3 with `requirements`, from the package index of none. */
const mainEnv = (requirements: string[]) =>
  resolveEnv({ id: 'main', python: 'python3', requirements, default: true, layer: null, index: NO_INDEX });

describe('environments', () => {
  it('key the cache by interpreter and requirements, in any order', async () => {
    const a = await mainEnv(['torch', 'numpy']);
    const b = await mainEnv(['numpy', 'torch']);
    const c = await mainEnv(['numpy']);
    expect(a.dir).toBe(b.dir);
    expect(a.dir).not.toBe(c.dir);
    expect(path.basename(a.dir)).toMatch(/^main-[0-9a-f]{16}$/);
  });

  it('names the requirement pip could not install', () => {
    const out =
      'ERROR: Could not find a version that satisfies the requirement torch==0.0.1 (from versions: 2.0.0)\nERROR: No matching distribution found for torch==0.0.1';
    expect(failedRequirement(out, ['torch==0.0.1'])).toMatch(/^pip could not install 'torch==0\.0\.1'/);
  });

  it('a failed build is one clear message naming the requirement, and leaves nothing half-built', async () => {
    const dir = tmpdir();
    const spec = envSpec(dir, 'broken', 'torch==0.0.0.1');
    const cache = path.join(dir, 'cache');
    const r = await cli(['env', 'build', spec], { env: { BENCHGRID_CACHE: cache }, timeout: 300_000 });
    expect(r.code).toBe(3);
    // uv builds it where it can be had (src/env/uv.ts), else pip: either names the requirement.
    expect(r.stderr).toMatch(/building environment 'broken' failed: (pip|uv) could not install 'torch==0\.0\.0\.1'/);
    const list = await cli(['env', 'list', spec, '--json'], { env: { BENCHGRID_CACHE: cache } });
    expect(JSON.parse(list.stdout)[0].built).toBe(false);
  }, 300_000);
  it('shows the build progress on stderr: what the installer is doing and the time elapsed', async () => {
    const dir = tmpdir();
    const spec = envSpec(dir, 'small', 'six==1.16.0');
    const r = await cli(['env', 'build', spec], {
      env: { BENCHGRID_CACHE: path.join(dir, 'cache') },
      timeout: 300_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/environment 'small': (collecting six==1\.16\.0|resolved 1 package) \(\d+:\d\d elapsed\)/);
  }, 300_000);
});
