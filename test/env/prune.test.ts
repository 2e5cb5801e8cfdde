// `env prune`: which cached entries go. Here, the `.building-PID` directories a killed build leaves behind.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseStaleBuilds } from '../../src/env/prune.ts';
import { cli, tmpdir } from '../helpers.ts';

describe('chooseStaleBuilds', () => {
  it('chooses the unfinished builds whose process is gone, keeps those in progress, and ignores everything else', () => {
    // An environment, its log and lock, an unfinished build of it and of a layer, and two names that only look like builds.
    const env = 'main-0123456789abcdef';
    const names = [
      env,
      `${env}.build.log`,
      `${env}.lock`,
      `${env}.building-4242`,
      'main+captum-0.8.0-fedcba9876543210.building-77',
      `${env}.building-`,
      `${env}.building-12x`,
    ];
    const asked: number[] = [];
    const alive = (pid: number) => {
      asked.push(pid);
      return pid === 77;
    };
    expect(chooseStaleBuilds(names, alive)).toEqual([
      {
        name: 'main-0123456789abcdef.building-4242',
        pid: 4242,
        why: 'an unfinished build of main-0123456789abcdef by process 4242, which is no longer running',
      },
    ]);
    expect(asked.sort((a, b) => a - b)).toEqual([77, 4242]);
  });
});

describe('env prune', () => {
  it('removes a stale .building directory and says so; one of a live process stays', async () => {
    const cache = tmpdir();
    const envs = path.join(cache, 'envs');
    // 2**22 + 1 is above the largest pid Linux hands out (pid_max is at most 2**22).
    const stale = path.join(envs, `main-0123456789abcdef.building-${2 ** 22 + 1}`);
    const live = path.join(envs, `main-0123456789abcdef.building-${process.pid}`);
    for (const d of [stale, live]) fs.mkdirSync(path.join(d, 'bin'), { recursive: true });
    const dry = await cli(['env', 'prune', '--older-than', '30'], { env: { BENCHGRID_CACHE: cache } });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`would remove ${stale} (`);
    expect(dry.stdout).toMatch(/0 environment\(s\) and 1 unfinished build\(s\), .* would be freed/);
    expect(fs.existsSync(stale)).toBe(true);
    const r = await cli(['env', 'prune', '--older-than', '30', '--yes'], { env: { BENCHGRID_CACHE: cache } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `removing ${stale.replace(/[.+]/g, '\\$&')} \\(.*\\): an unfinished build of main-0123456789abcdef by process \\d+, which is no longer running`,
      ),
    );
    expect(r.stdout).not.toContain(live);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
  });
});
