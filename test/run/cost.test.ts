// What a run will cost, as `plan` says it: processes by kind, the environments to build with what they
// download (pip asked for real, into a cache of its own), and the wall-time arithmetic.
import path from 'node:path';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planCost, describeDuration } from '../../src/run/cost.ts';
import type { Job } from '../../src/run/jobs.ts';
import type { ProcessRecord } from '../../src/records/journal.ts';
import { cli, FIXTURES, tmpdir, write } from '../helpers.ts';

const job = (cell: string, kind: Job['kind'], index = 0) =>
  ({ key: `${cell}#${kind}#${index}`, cell: { id: cell }, kind, index }) as unknown as Job;
const rec = (cell: string, kind: Job['kind'], wall: number, started = '2026-01-01T00:00:00.000Z') =>
  ({
    type: 'process',
    key: `${cell}#${kind}#0`,
    cell,
    kind,
    index: 0,
    started,
    wall_s: wall,
    cpus: null,
    start: 'fork',
    outcome: { kind: 'failed', status: 'error', reason: '', tail: '' },
  }) as ProcessRecord;

/** The tiny spec written to `dir/name`, its default environment asking pip for the one `requirement`. */
function tinyRequiring(dir: string, requirement: string, name = 'tiny.yaml'): string {
  const tiny = fs
    .readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8')
    .replace(/^# yaml-language-server.*\n/, '');
  const environments = `environments:\n  main: { default: true, requirements: ["${requirement}"] }\n`;
  return write(dir, name, tiny.replace(/^subjects:/m, `${environments}subjects:`));
}

describe('planCost', () => {
  it('counts processes by kind and estimates from the last run: own cell first, else the kind, plus what the run spent outside processes', () => {
    const jobs = [job('a', 'time', 0), job('a', 'time', 1), job('b', 'time'), job('a', 'memory')];
    // the run started a minute before its first process (an environment build): that minute does not come back
    const last = {
      dir: 'results/x/1',
      started: '2025-12-31T23:59:00.000Z',
      finished: '2026-01-01T00:00:20.000Z',
      concurrency: 1,
      records: [rec('a', 'time', 2), rec('c', 'time', 4), rec('a', 'memory', 10)],
    };
    const c = planCost(jobs, last);
    expect(c.processes).toEqual({ time: 3, memory: 1, aa: 0, control: 0, total: 4 });
    // a: 2 + 2; b: the mean of timing processes (3); a's memory: 10; outside the processes: 20 - 16 = 4
    expect(c.estimate).toEqual({ seconds: 2 + 2 + 3 + 10 + 4, from: 'results/x/1', started: last.started, matched: 3 });
    expect(planCost(jobs, null).estimate).toBeNull();
    expect(c.cells).toBe(2);
    expect(c.paired_baselines).toBe(0);
    expect([describeDuration(40), describeDuration(1200), describeDuration(9000)]).toEqual([
      'about 40 s',
      'about 20 min',
      'about 2.5 h',
    ]);
  });

  it('counts the baseline cells timed by their row, starting no timing process of their own, and not one that starts timing processes', () => {
    const jobs = [
      job('A/c/hooks/m', 'time'),
      job('A/c/raw/m', 'memory'),
      job('A/c/raw/m', 'control'),
      job('B/c/hooks/m', 'time'),
      job('C/c/raw/m', 'time'),
    ];
    const c = planCost(jobs, null, new Set(['A/c/raw/m', 'A/d/raw/m', 'B/c/raw/m', 'C/c/raw/m']));
    // A/c/raw/m runs its memory and its row's control processes, not a timing process: its row times it.
    // C/c/raw/m starts a timing process of its own, so it is not one of them.
    expect([c.cells, c.paired_baselines]).toEqual([6, 3]);
    expect(c.processes).toMatchObject({ time: 3, memory: 1, control: 1, total: 5 });
  });
});

describe('plan on a spec whose environment is not built', () => {
  it('says it will be built first and what pip would download for it', async () => {
    const dir = tmpdir();
    const spec = tinyRequiring(dir, 'tqdm==4.70.1');
    const env = { BENCHGRID_CACHE: path.join(dir, 'cache') };
    // A plain plan starts nothing: the size is what --sizes asks pip, and later plans read from the cache.
    const plain = await cli(['plan', spec], { cwd: dir, env });
    expect(plain.stdout.replace(/\s+/g, ' ')).toMatch(
      /1 requirement, download size not asked \(plan --sizes asks pip\)\./,
    );
    const r = await cli(['plan', spec, '--sizes'], { cwd: dir, env, timeout: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /asking pip what building environment 'main' downloads \(1 requirement; once, then cached\)/,
    );
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
      /Environment main is built first \(once; cached for later runs\): 1 requirement, downloads \d+\.\d KiB in 1 file\./,
    );
    const again = await cli(['plan', spec, '--json'], { cwd: dir, env });
    expect(again.stderr).not.toMatch(/asking pip/);
    const b = JSON.parse(again.stdout).environments_to_build[0];
    expect(b).toMatchObject({
      environment: 'main',
      requirements: 1,
      layer_over: null,
      download: { files: 1, unknown: 0, error: null },
    });
    expect(b.download.bytes).toBeGreaterThan(10_000);
    expect(
      (
        await cli(['plan', spec, '--no-sizes'], { cwd: dir, env: { BENCHGRID_CACHE: path.join(dir, 'other') } })
      ).stdout.replace(/\s+/g, ' '),
    ).toMatch(/download size not asked \(plan --sizes asks pip\)/);
  }, 300_000);
});

describe('plan when pip cannot say what an environment downloads', () => {
  it('says the size is unknown and why, still plans (exit 0), caches nothing, and asks again over a corrupt cache file', async () => {
    const dir = tmpdir();
    // a release of a real distribution that does not exist: pip resolves nothing
    const spec = tinyRequiring(dir, 'tqdm==0.0.0.1');
    const cache = path.join(dir, 'cache');
    const r = await cli(['plan', spec, '--sizes'], { cwd: dir, env: { BENCHGRID_CACHE: cache }, timeout: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
      /Environment main is built first \(once; cached for later runs\): 1 requirement, download size unknown \(.*tqdm==0\.0\.0\.1.*\)\./,
    );
    expect(fs.existsSync(path.join(cache, 'sizes'))).toBe(false);

    // a size file that is not what plan writes (hand-edited, truncated) is not believed
    const good = tinyRequiring(dir, 'tqdm==4.67.1', 'good.yaml');
    expect(
      (await cli(['plan', good, '--sizes'], { cwd: dir, env: { BENCHGRID_CACHE: cache }, timeout: 300_000 })).code,
    ).toBe(0);
    const [file] = fs.readdirSync(path.join(cache, 'sizes'));
    fs.writeFileSync(
      path.join(cache, 'sizes', file),
      JSON.stringify({ bytes: '9'.repeat(40), files: -1, unknown: 0, error: null }),
    );
    const again = await cli(['plan', good, '--sizes'], { cwd: dir, env: { BENCHGRID_CACHE: cache }, timeout: 300_000 });
    expect(again.stderr).toMatch(/asking pip what building environment 'main' downloads/);
    expect(again.stdout.replace(/\s+/g, ' ')).toMatch(/downloads \d+\.\d KiB in 1 file\./);
  }, 600_000);
});
