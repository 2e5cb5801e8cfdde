// A bundle exported here and run by its driver with plain python3 and no Node on PATH, then ingested,
// gives the same cells and verdicts as `run`; two shards merge; ingest refuses what must not merge.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../../src/results/load.ts';
import type { Results } from '../../../src/results/model.ts';
import { digestOf } from '../../../src/spec/normalise.ts';
import { cli, FIXTURES, testPython, tmpdir } from '../../helpers.ts';
import { copy, journalKeys, summary, withoutTimings } from './bundle-fixtures.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
// Three processes over two shards (the raw cell is timed by the paired processes of hooks and tv_fx), and
// one cell the plan marks unsupported.
const ONLY = 'A/single_module_output/*/*,A/replacement_edit/tv_fx/*,B/raw_forward/*/*';

let work: string;
let python: string;
let noNodePath: string;
let viaRun: Results;
let viaBundle: Results;
const shard = (i: number) => path.join(work, `shard-${i}`);

/** PATH without any directory holding `node`, plus a directory whose python3 is the system's plain one. */
function pathWithoutNode(): string {
  const bin = path.join(work, 'bin');
  fs.mkdirSync(bin);
  fs.symlinkSync(fs.realpathSync('/usr/bin/python3'), path.join(bin, 'python3'));
  const dirs = (process.env.PATH ?? '').split(':').filter((d) => d && !fs.existsSync(path.join(d, 'node')));
  return [bin, ...dirs].join(':');
}

function driver(dir: string) {
  return execa('python3', [path.join(dir, 'driver.py'), '--python', python], {
    env: { PATH: noNodePath, HOME: work },
    extendEnv: false,
    reject: false,
    timeout: 400_000,
  });
}

async function ingest(dirs: string[], extra: string[] = []) {
  const out = path.join(tmpdir(), 'ingested');
  const r = await cli(['ingest', ...dirs, '--out', out, ...extra]);
  return { ...r, out };
}

beforeAll(async () => {
  work = tmpdir('benchgrid-bundle-');
  python = await testPython();
  noNodePath = pathWithoutNode();
  const runOut = path.join(work, 'run');
  const run = cli(['run', TINY, '--only', ONLY, '--processes', '1', '--out', runOut, '--python', python], {
    timeout: 500_000,
  });
  for (const i of [1, 2]) {
    const r = await cli(['export', TINY, '--only', ONLY, '--processes', '1', '--shard', `${i}/2`, '--out', shard(i)]);
    expect(r.code, r.stderr).toBe(0);
  }
  const ran = await run;
  expect(ran.code, ran.stderr).toBe(0);
  viaRun = loadResults(path.join(runOut, 'results.json'));
}, 600_000);

describe('a bundle run by its driver without Node', () => {
  it('has no node on the PATH the driver runs with', async () => {
    const r = await execa('/bin/sh', ['-c', 'command -v node || echo none; command -v python3'], {
      env: { PATH: noNodePath },
      extendEnv: false,
    });
    expect(r.stdout.split('\n')[0]).toBe('none');
    expect(r.stdout.split('\n')[1]).toBe(path.join(work, 'bin', 'python3'));
  });

  it('stops on SIGINT keeping what finished, and resumes with only the missing processes', async () => {
    const child = driver(shard(1));
    const deadline = Date.now() + 300_000;
    while (
      Date.now() < deadline &&
      (!fs.existsSync(path.join(shard(1), 'journal.jsonl')) || journalKeys(shard(1)).length < 1)
    )
      await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    const first = await child;
    expect(first.exitCode, first.stderr).toBe(130);
    expect(first.stderr).toMatch(/SIGINT: stopped; what finished is kept/);
    const before = journalKeys(shard(1));
    expect(before).toHaveLength(1);
    const again = await driver(shard(1));
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/2 processes, 1 to run/);
    const after = journalKeys(shard(1));
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(before[0]);
    expect(new Set(after).size).toBe(2);
  }, 600_000);

  it('runs the second shard to the end', async () => {
    const r = await driver(shard(2));
    expect(r.exitCode, r.stderr).toBe(0);
    // hooks' timing process and group B's reference's (the read row's control runs in shard 1, with tv_fx)
    expect(journalKeys(shard(2))).toHaveLength(2);
  }, 400_000);

  it('merges the two shards into the same cells, statuses and verdicts as `run`', async () => {
    const r = await ingest([shard(1), shard(2)]);
    expect(r.code, r.stderr).toBe(0);
    viaBundle = loadResults(path.join(r.out, 'results.json'));
    expect(viaBundle.partial).toBe(false);
    expect(viaBundle.spec).toEqual(viaRun.spec);
    expect(summary(viaBundle)).toEqual(summary(viaRun));
    expect(viaBundle.cells.find((c) => c.id === 'A/single_module_output/tv_fx/resnet18')).toMatchObject({
      status: 'ok',
      exact: 'bit',
    });
    expect(viaBundle.cells.find((c) => c.id === 'A/replacement_edit/tv_fx/resnet18')).toMatchObject({
      status: 'unsupported',
    });
    // Paired in the bundle as in the run, the raw cell timed by the two shards' blocks before the imports.
    expect(viaBundle.cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')?.paired).toMatchObject({
      baseline: 'raw',
    });
    expect(viaBundle.cells.find((c) => c.id === 'A/single_module_output/raw/resnet18')?.baseline_from).toEqual([
      'A/single_module_output/hooks/resnet18',
      'A/single_module_output/tv_fx/resnet18',
    ]);
    expect(viaBundle.run).toMatchObject({ executor: 'bundle', overrides: { processes: 1 }, only: ONLY });
    expect(viaBundle.host.cpu_model).toBeTruthy();
    expect(fs.existsSync(path.join(r.out, 'report.md'))).toBe(true);
    expect(fs.existsSync(path.join(r.out, 'report.html'))).toBe(true);
  }, 120_000);
});

describe('one engine: a local run and a bundle run of the same cells', () => {
  it('differ only in their timings: statuses, exactness, witnesses, versions, ids and process counts are equal', () => {
    expect(viaBundle, 'the merge test above ingests the bundles').toBeDefined();
    const byId = (r: Results) => [...r.cells].sort((a, b) => a.id.localeCompare(b.id));
    const local = byId(viaRun).map(withoutTimings);
    const bundled = byId(viaBundle).map(withoutTimings);
    expect(bundled).toEqual(local);
    // What is compared is there: every measured cell kept its processes, witnesses, verdict and versions.
    const measured = local.filter((c) => c.status === 'ok') as Array<
      Record<string, unknown> & { per_process: unknown[]; work: { witnesses: unknown[] } | null }
    >;
    expect(measured.length).toBeGreaterThanOrEqual(3);
    for (const c of measured) {
      expect(c.per_process.length, String(c.id)).toBeGreaterThan(0);
      expect(c.runtime, String(c.id)).toMatchObject({ torch: expect.any(String), python: expect.any(String) });
    }
    expect(measured.some((c) => (c.work?.witnesses.length ?? 0) > 0 && c.exact === 'bit')).toBe(true);
    const starts = (r: Results) => new Set(r.cells.flatMap((c) => c.per_process ?? []).map((p) => p.start));
    expect(starts(viaBundle)).toEqual(new Set(['cold']));
    expect(starts(viaRun)).toEqual(new Set([viaRun.run?.start]));
    // The paired figures are timings; which baseline each cell was paired with is not.
    const baselines = (r: Results) => byId(r).map((c) => [c.id, c.paired?.baseline ?? null, c.unpaired ?? null]);
    expect(baselines(viaBundle)).toEqual(baselines(viaRun));
    // So are the row's control (its figures are timings; where and how often it ran is not) and what each tax was judged against.
    const controls = (r: Results) =>
      byId(r).map((c) => [
        c.id,
        (c.control ?? []).map((f) => [f.environment, f.processes.length, f.failed]),
        c.import_tax?.control ?? null,
      ]);
    expect(controls(viaBundle)).toEqual(controls(viaRun));
    expect(viaRun.cells.find((c) => c.id === 'A/single_module_output/raw/resnet18')?.control).toHaveLength(1);
  });
});

describe('ingest refuses what must not merge, and lists it', () => {
  it('refuses a missing shard, and with --partial marks the results partial', async () => {
    const r = await ingest([shard(1)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/2 process\(es\) are in no given bundle \(shard\(s\) 2 of 2 not given\)/);
    const partial = await ingest([shard(1)], ['--partial']);
    expect(partial.code, partial.stderr).toBe(0);
    const results = loadResults(path.join(partial.out, 'results.json'));
    expect(results.partial).toBe(true);
    expect((results.run!.missing_processes as string[]).length).toBe(2);
  });

  it('refuses processes that have not run yet', async () => {
    const dir = copy(shard(2));
    const lines = fs.readFileSync(path.join(dir, 'journal.jsonl'), 'utf8').trimEnd().split('\n');
    fs.writeFileSync(path.join(dir, 'journal.jsonl'), lines.slice(0, -1).join('\n') + '\n');
    const r = await ingest([shard(1), dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/1 process\(es\) have not run yet \(run driver\.py again to finish them\): /);
  });

  it('refuses duplicates: the same shard twice', async () => {
    const r = await ingest([shard(1), copy(shard(1)), shard(2)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/shard 1 is given 2 times/);
    expect(r.stderr).toMatch(
      /2 cell process\(es\) appear in more than one bundle: .*A\/single_module_output\/tv_fx\/resnet18#time#0 .*A\/single_module_output\/raw\/resnet18#control#0/,
    );
  });

  it('refuses results from a different spec version', async () => {
    const dir = copy(shard(2));
    const data = JSON.parse(fs.readFileSync(path.join(dir, 'spec.json'), 'utf8'));
    data.title = 'Tiny ResNet-18, CPU, edited';
    fs.writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(data));
    const edited = await ingest([shard(1), dir]);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toMatch(/spec\.json was edited/);
    // a consistent bundle of the other version: manifest re-digested too
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'bundle.json'), 'utf8'));
    manifest.spec.digest = digestOf(data);
    fs.writeFileSync(path.join(dir, 'bundle.json'), JSON.stringify(manifest));
    const r = await ingest([shard(1), dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the bundles are of 2 spec versions; results of two spec versions cannot be merged:/);
    expect(r.stderr).toContain(`spec tiny ${manifest.spec.digest.slice(0, 12)}: ${dir} (shard 2/2)`);
  });

  it('refuses mixed environments, listing each with its bundles', async () => {
    const dir = copy(shard(2));
    const results = fs
      .readdirSync(path.join(dir, 'results'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json'));
    const file = path.join(dir, 'results', results[0]);
    const res = JSON.parse(fs.readFileSync(file, 'utf8'));
    res.versions.torch = '9.9.9';
    fs.writeFileSync(file, JSON.stringify(res));
    const r = await ingest([shard(1), dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /the results come from 2 different software stacks in environment 'default'; timings from different stacks cannot be merged:/,
    );
    expect(r.stderr).toMatch(/torch 9\.9\.9, .*: .*\(shard 2\/2\) 1 process\(es\)/);
  });
});
