// The fork start mode (issue 9): forked cell processes measure the same things as cold ones, start from
// untouched modules, are killed at the time limit with their children, and the mode is recorded.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../../src/errors.ts';
import { forkLauncher } from '../../../src/executors/local/forkserver.ts';
import { buildRequest } from '../../../src/run/jobs.ts';
import { loadSpec } from '../../../src/validate/load.ts';
import { runOnce } from '../../../src/executors/local/spawn.ts';
import { loadResults } from '../../../src/results/load.ts';
import type { Results } from '../../../src/results/model.ts';
import { HARNESS_DIR, REPO_ROOT } from '../../../src/repository.ts';
import { cli, FIXTURES, ROOT, testPython, tmpdir, write, sleepersLeftUnder } from '../../helpers.ts';
import { TIMED_OUT } from '../../helpers/fault-cells.ts';

let python: string;
beforeAll(async () => {
  python = await testPython();
});

/** Runs a spec with the given start mode; returns the loaded results and the CLI's exit code. */
async function runWith(
  spec: string,
  start: 'cold' | 'fork',
  extra: string[] = [],
): Promise<{ code: number; stderr: string; results: Results; out: string }> {
  const out = path.join(tmpdir(), `run-${start}`);
  const r = await cli(['run', spec, '--out', out, '--python', python, '--start', start, ...extra], {
    timeout: 500_000,
  });
  if (!fs.existsSync(path.join(out, 'results.json')))
    throw new Error(`benchgrid run ${spec} --start ${start} wrote no results (exit ${r.code}):\n${r.stderr}`);
  return { code: r.code, stderr: r.stderr, results: loadResults(path.join(out, 'results.json')), out };
}

describe('forked cell processes on the tiny spec', () => {
  let cold: Results;
  let fork: Results;
  beforeAll(async () => {
    const spec = path.join(FIXTURES, 'specs/tiny.yaml');
    const only = ['--only', 'A/*/*/*,B/*/*/*', '--processes', '1'];
    const c = await runWith(spec, 'cold', only);
    const f = await runWith(spec, 'fork', only);
    expect(c.code, c.stderr).toBe(0);
    expect(f.code, f.stderr).toBe(0);
    cold = c.results;
    fork = f.results;
  }, 1_000_000);

  it('gives the same statuses and exactness verdicts as cold processes', () => {
    const verdicts = (r: Results) => r.cells.map((c) => [c.id, c.status, c.exact ?? null, c.reason]);
    expect(fork.cells.length).toBeGreaterThan(10);
    expect(verdicts(fork)).toEqual(verdicts(cold));
    expect(fork.cells.filter((c) => c.exact === 'bit').length).toBeGreaterThan(0);
  });

  it('records which start mode ran, for the run and for every process', () => {
    expect(fork.run).toMatchObject({ start: 'fork' });
    expect(cold.run).toMatchObject({ start: 'cold' });
    const starts = (r: Results) => new Set(r.cells.flatMap((c) => c.per_process ?? []).map((p) => p.start));
    expect(starts(fork)).toEqual(new Set(['fork']));
    expect(starts(cold)).toEqual(new Set(['cold']));
  });

  it('reports the startup, imports and build phases of a forked child like those of a cold one', () => {
    // A tool's process (raw's own figures come from the blocks its row's paired processes time before the import).
    const hooks = (r: Results) =>
      r.cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')!.per_process![0].phases_s;
    for (const phase of ['startup', 'imports', 'build', 'before', 'warmup', 'timed']) {
      expect(typeof hooks(fork)[phase], phase).toBe('number');
      expect(typeof hooks(cold)[phase], phase).toBe('number');
    }
  });
});

describe('isolation between forked cells', () => {
  it('a tool that patches torch globally (and torchlens, where installed) does not leak into the next cell', async () => {
    const dir = tmpdir();
    const spec = write(
      dir,
      'leak.yaml',
      [
        'benchgrid: 1',
        'name: leak',
        'title: Leak',
        'device: cpu',
        `runners: { leak: ${JSON.stringify(path.join(FIXTURES, 'runners/leak'))} }`,
        'protocol: { warmups: 1, samples: 2, processes: 2, min_samples: 1, budget_s_per_cell: 5, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }',
        'subjects:',
        '  resnet18:',
        '    label: ResNet-18',
        '    model: { builder: torchvision, name: resnet18, seed: 0 }',
        '    inputs: { kind: image, shape: [1, 3, 32, 32], seed: 0, stimuli: 2, batch_size: 2 }',
        '    sites: { layer2: layer2 }',
        'contracts:',
        '  single_module_output: { site: layer2 }',
        'tools:',
        '  patcher: { label: patches torch globally, runner: leak }',
        '  checker: { label: fails when a patch is visible, runner: leak }',
        'groups:',
        '  L:',
        '    subjects: [resnet18]',
        '    cells:',
        '      single_module_output: [patcher, checker]',
        '',
      ].join('\n'),
    );
    const r = await runWith(spec, 'fork');
    expect(r.code, r.stderr).toBe(0);
    const cell = (tool: string) => r.results.cells.find((c) => c.id === `L/single_module_output/${tool}/resnet18`)!;
    expect(cell('patcher')).toMatchObject({ status: 'ok' });
    expect(cell('checker'), JSON.stringify(cell('checker').error)).toMatchObject({ status: 'ok' });
    // the processes ran in the order patcher, patcher, checker, checker, all forked from one parent
    expect(cell('checker').per_process!.map((p) => p.start)).toEqual(['fork', 'fork']);
  }, 600_000);

  it('the checker does see the patches when both run in one process (the test can fail)', async () => {
    const out = path.join(tmpdir(), 'leak.out');
    const r = await runOnce(python, {
      argv: [
        '-c',
        [
          'import torch, torchvision',
          'from leak_adapters import patcher, checker',
          'assert checker.leaks() == [], checker.leaks()',
          'patcher.patch(torchvision.models.resnet18().eval(), torch.randn(1, 3, 32, 32))',
          'print(len(checker.leaks()))',
        ].join('\n'),
      ],
      cwd: REPO_ROOT,
      pythonpath: [path.join(FIXTURES, 'runners/leak')],
      threads: 1,
      tmpdir: null,
      stdout: out,
      stderr: `${out}.err`,
      cpus: null,
      timeout_s: 120,
    });
    expect(r.exitCode, r.stderrTail).toBe(0);
    expect(Number(fs.readFileSync(out, 'utf8').trim().split('\n').pop())).toBeGreaterThanOrEqual(2);
  }, 120_000);
});

describe('faults under fork', () => {
  it('kills a hanging forked process at the time limit, and the children it started', async () => {
    const r = await runWith(path.join(FIXTURES, 'specs/faults.yaml'), 'fork', [
      '--only',
      'F/*/hang/*,F/*/spawns/*,F/*/hooks/*',
    ]);
    // The hanging cells end in error and the run says so in its exit; hooks is measured and kept.
    expect(r.code, r.stderr).toBe(EXIT.cellErrors);
    const cell = (tool: string) => r.results.cells.find((c) => c.id === `F/single_module_output/${tool}/resnet18`)!;
    expect(cell('hooks')).toMatchObject({ status: 'ok' });
    expect(cell('hang')).toMatchObject(TIMED_OUT);
    expect(cell('spawns')).toMatchObject(TIMED_OUT);
    expect(sleepersLeftUnder(r.out)).toEqual([]);
  }, 600_000);
});

describe('the fork launcher', () => {
  it("starts memory processes cold: a forked child's peak RSS would not count the parent's untouched pages", async () => {
    const loaded = await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
    const cell = loaded.plan!.cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')!;
    const dir = tmpdir();
    const request = path.join(dir, 'm.request.json');
    const protocol = { ...loaded.spec!.protocol, memory_runs: 1 };
    fs.writeFileSync(
      request,
      JSON.stringify(
        buildRequest(
          {
            spec: loaded.spec!,
            manifests: loaded.manifests!,
            protocol,
            device: 'cpu',
            schedule: { kind: 'sequential', seed: 0 },
          },
          { key: 'k', cell, kind: 'memory', index: 0 },
        ),
      ),
    );
    const launcher = await forkLauncher(python, 1);
    try {
      // the job says it is a memory process: the launcher does not read the request file to learn it
      const proc = launcher.start({
        mode: 'memory',
        python,
        request,
        result: path.join(dir, 'm.result.json'),
        pythonPath: [HARNESS_DIR, path.join(ROOT, 'runners/torch')],
        threads: 1,
        tmpdir: dir,
        cwd: REPO_ROOT,
        timeoutS: 300,
        stdout: path.join(dir, 'm.stdout.log'),
        stderr: path.join(dir, 'm.stderr.log'),
      });
      expect(proc.start).toBe('cold');
      const exit = await proc.done;
      expect(exit.exitCode, exit.stderrTail).toBe(0);
      const result = JSON.parse(fs.readFileSync(path.join(dir, 'm.result.json'), 'utf8'));
      expect(result).toMatchObject({ status: 'ok', mode: 'memory' });
      // a cold process imported torch itself
      expect(result.phases_s.imports).toBeGreaterThan(0.1);
    } finally {
      await launcher.close();
    }
  }, 300_000);

  it('resolves running and later processes as spawn failures when the fork server dies', async () => {
    const launcher = await forkLauncher(python, 1);
    const dir = tmpdir();
    const spawnSpec = (name: string) => ({
      mode: 'time' as const,
      python,
      request: path.join(dir, `${name}.request.json`),
      result: path.join(dir, `${name}.result.json`),
      pythonPath: [HARNESS_DIR],
      threads: 1,
      tmpdir: dir,
      cwd: REPO_ROOT,
      timeoutS: 300,
      stdout: path.join(dir, `${name}.stdout.log`),
      stderr: path.join(dir, `${name}.stderr.log`),
    });
    // a long cell: the request file is a FIFO nobody writes, so the child blocks reading it
    const fifo = path.join(dir, 'a.request.json');
    const { execa } = await import('execa');
    await execa('mkfifo', [fifo]);
    const running = launcher.start(spawnSpec('a'));
    await new Promise((r) => setTimeout(r, 1000));
    const servers = serverPids();
    expect(servers.length).toBeGreaterThan(0);
    for (const pid of servers) process.kill(pid, 'SIGKILL');
    const exit = await running.done;
    expect(exit.spawnError).toMatch(/the fork server .* exited/);
    const later = await launcher.start(spawnSpec('b')).done;
    expect(later.spawnError).toMatch(/the fork server .* exited/);
    await launcher.close();
  }, 300_000);
});

/** Fork servers started by this test process (children of it running benchgrid_harness.forkserver). */
function serverPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map(Number)
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return (
          ppid === process.pid &&
          fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('benchgrid_harness.forkserver')
        );
      } catch {
        return false;
      }
    });
}
