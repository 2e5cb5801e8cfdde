// `run --executor slurm` against a real one-node Slurm cluster on this machine (scripts/slurm-up.sh):
// submit and ingest later; and a submission where one array task fails and one is cancelled, both
// reported with their Slurm state and log tail while the rest is ingested.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../../src/results/load.ts';
import { cli, FIXTURES, ROOT, testPython, tmpdir } from '../../helpers.ts';

const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
const ONLY = 'A/single_module_output/*/*';
// Three cells with processes of their own, one per shard (the raw cell is timed by its row's paired processes).
const ONLY3 = 'A/single_module_output/*/*,A/matched_retained/hooks/*';
const root = process.getuid?.() === 0;
const env = { BENCHGRID_SLURM_POLL_S: '1' };
let python: string;

async function waitFor(what: string, test: () => boolean | Promise<boolean>, seconds = 300): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await test()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function taskState(job: string, task: number): Promise<string> {
  const r = await execa('squeue', ['--noheader', '--array', '--states=all', `--jobs=${job}_${task}`, '--format=%T'], {
    reject: false,
  });
  return r.stdout.trim();
}

describe.skipIf(!root)('Slurm, on a local one-node cluster', () => {
  beforeAll(async () => {
    const up = await execa('bash', [path.join(ROOT, 'scripts/slurm-up.sh')], { reject: false, timeout: 600_000 });
    expect(up.exitCode, `${up.stdout}\n${up.stderr}`).toBe(0);
    python = await testPython();
  }, 620_000);

  it('submits with --no-wait, and `benchgrid ingest` follows the tasks to the end and merges them', async () => {
    const shared = path.join(tmpdir('benchgrid-slurm-'), 'shared');
    const r = await cli(
      [
        'run',
        '--executor',
        'slurm',
        TINY,
        '--only',
        ONLY,
        '--processes',
        '1',
        '--shards',
        '2',
        '--shared-dir',
        shared,
        '--python',
        python,
        '--no-wait',
        '--json',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const submitted = JSON.parse(r.stdout);
    expect(submitted).toMatchObject({ dir: shared, shards: 2, submitted: true });
    expect(r.stderr).toMatch(/not waiting \(--no-wait\); when the tasks have ended: benchgrid ingest /);
    const record = JSON.parse(fs.readFileSync(path.join(shared, 'slurm.json'), 'utf8'));
    expect(record).toMatchObject({ job_id: submitted.job_id, shards: 2, spec: { name: 'tiny' } });

    const done = await cli(['ingest', shared, '--json'], { env, timeout: 500_000 });
    expect(done.code, done.stderr).toBe(0);
    const summary = JSON.parse(done.stdout);
    expect(summary.tasks.map((t: { state: string }) => t.state)).toEqual(['COMPLETED', 'COMPLETED']);
    // hooks's and tv_fx's timing processes, and their row's control (raw against itself)
    expect(done.stderr).toMatch(/slurm job \d+: 2 completed; 3\/3 cell processes done/);
    const results = loadResults(path.join(shared, 'results.json'));
    expect(results.partial).toBe(false);
    expect(results.run).toMatchObject({ executor: 'slurm' });
    expect(results.cells.map((c) => [c.id, c.status, c.exact]).sort()).toEqual([
      ['A/single_module_output/hooks/resnet18', 'ok', null],
      ['A/single_module_output/raw/resnet18', 'ok', null],
      ['A/single_module_output/tv_fx/resnet18', 'ok', 'bit'],
    ]);
    const driver = fs.readFileSync(path.join(shared, 'shard-0', 'journal.jsonl'), 'utf8').split('\n')[0];
    expect(JSON.parse(driver).slurm).toMatchObject({ array_job_id: submitted.job_id, array_task_id: '0' });
  }, 600_000);

  it('reports a failed task and a cancelled one with their Slurm state and log tail, and ingests the rest', async () => {
    const shared = path.join(tmpdir('benchgrid-slurm-'), 'shared');
    // Held at submission, so shard 2 can be broken (its driver then exits 2) before anything runs.
    const run = execa(
      process.execPath,
      [
        path.join(ROOT, 'bin/benchgrid.js'),
        'run',
        '--executor',
        'slurm',
        TINY,
        '--only',
        ONLY3,
        '--processes',
        '1',
        '--shards',
        '3',
        '--shared-dir',
        shared,
        '--python',
        python,
        '--sbatch-arg=--hold',
        '--json',
      ],
      { reject: false, env: { ...env, NO_COLOR: '1' }, timeout: 500_000 },
    );
    await waitFor('the submission record', () => fs.existsSync(path.join(shared, 'slurm.json')), 120);
    const job = JSON.parse(fs.readFileSync(path.join(shared, 'slurm.json'), 'utf8')).job_id as string;
    expect(await taskState(job, 0)).toBe('PENDING');
    fs.writeFileSync(path.join(shared, 'shard-1', 'bundle.json'), '{');
    await execa('scontrol', ['release', job]);
    // The task can be RUNNING a moment before Slurm has created its log file: wait for both.
    const log2 = path.join(shared, 'logs/task-2.log');
    await waitFor(
      'task 2 to run its driver',
      async () =>
        (await taskState(job, 2)) === 'RUNNING' &&
        fs.existsSync(log2) &&
        /driver: tiny shard 3\/3/.test(fs.readFileSync(log2, 'utf8')),
    );
    await execa('scancel', [`${job}_2`]);
    const r = await run;

    expect(r.exitCode, r.stderr).toBe(3);
    expect(r.stderr).toMatch(
      /task 1 \(shard 2\/3\) ended FAILED, exit 2:0 .*; the end of logs\/task-1\.log:\n.*\n\s+driver: .*shard-1\/bundle\.json is not valid JSON/,
    );
    expect(r.stderr).toMatch(
      /task 2 \(shard 3\/3\) ended CANCELLED; the end of logs\/task-2\.log:\n(.*\n)*.*CANCELLED AT/,
    );
    expect(r.stderr).toMatch(
      /2 of 3 Slurm task\(s\) did not complete: task 1 FAILED, task 2 CANCELLED; the results are partial\./,
    );
    const summary = JSON.parse(r.stdout);
    expect(summary.tasks.map((t: { state: string }) => t.state)).toEqual(['COMPLETED', 'FAILED', 'CANCELLED']);
    expect(summary.partial).toBe(true);
    const results = loadResults(path.join(shared, 'results.json'));
    expect(results.partial).toBe(true);
    // Shard 1 (task 0) completed: matched_retained's hooks and the read row's control (shards hold whole
    // cells round-robin, and the control runs on raw's cell). raw's timing comes from hooks's and tv_fx's
    // blocks before the import, in the shards that did not complete, so it is missing with them.
    expect(results.cells.map((c) => [c.id, c.status])).toEqual([['A/matched_retained/hooks/resnet18', 'ok']]);
    expect(results.run?.missing).toEqual([
      'A/single_module_output/raw/resnet18',
      'A/single_module_output/hooks/resnet18',
      'A/single_module_output/tv_fx/resnet18',
    ]);
  }, 600_000);
});
