// The GPU check (scripts/gpu-check.sh, docs/gpu.md) end to end on the CPU: prepare a bundle with its
// wheelhouse, run it as the GPU machine would (Python only, an environment built by driver.py --setup-env),
// ingest it and draw the ratio table beside the seed's. No network: the target machine is this one's test
// interpreter, so prepare carries nothing; a probe wheel made here stands in for a carried library.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { cli, FIXTURES, ROOT, PREDECESSOR_RESULTS, testPython, tmpdir } from '../helpers.ts';

const SCRIPT = path.join(ROOT, 'scripts/gpu-check.sh');
const TINY = path.join(FIXTURES, 'specs/tiny.yaml');
const ONLY = 'A/single_module_output/raw/*,A/single_module_output/hooks/*';

let python: string;
let work: string;

// A pure wheel requiring torch (a wheel is a zip with METADATA, WHEEL and RECORD).
const PROBE_WHEEL = `
import sys, zipfile
with zipfile.ZipFile(sys.argv[1] + "/bgt_probe-1.0-py3-none-any.whl", "w") as z:
    z.writestr("bgt_probe/__init__.py", "")
    z.writestr("bgt_probe-1.0.dist-info/METADATA", "Metadata-Version: 2.1\\nName: bgt-probe\\nVersion: 1.0\\nRequires-Dist: torch\\n\\n")
    z.writestr("bgt_probe-1.0.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr("bgt_probe-1.0.dist-info/RECORD", "")
`;

function check(args: string[], timeout = 300_000) {
  return execa('bash', [SCRIPT, ...args], {
    cwd: ROOT,
    reject: false,
    timeout,
    env: { NO_COLOR: '1' },
    stdin: 'ignore',
  });
}

/** `gpu-check.sh prepare` of the tiny spec's `only` cells, one process each, for this machine's test interpreter. */
function prepare(bundle: string, only: string, device: string[] = []) {
  return check([
    'prepare',
    ...device,
    '--spec',
    TINY,
    '--bundle',
    bundle,
    '--machine-python',
    python,
    '--environment',
    'default',
    '--only',
    only,
    '--processes',
    '1',
  ]);
}

const json = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const requests = (bundle: string) =>
  json(path.join(bundle, 'bundle.json')).jobs.map((j: { request: string }) => json(path.join(bundle, j.request)));

beforeAll(async () => {
  python = await testPython();
  work = tmpdir('benchgrid-gpu-check-');
});

describe('scripts/gpu-check.sh --device cpu (dry run)', () => {
  it('prepares, runs with an environment built from the wheelhouse, ingests and compares with the seed by ratios', async () => {
    const bundle = path.join(work, 'cpu', 'bundle');
    const out = path.join(work, 'cpu', 'back');
    const results = path.join(work, 'cpu', 'results');
    const prep = await prepare(bundle, ONLY, ['--device', 'cpu']);
    expect(prep.exitCode, prep.stderr).toBe(0);
    expect(prep.stderr).toMatch(/bundle .* ready: \d+ MiB with its wheelhouse/);
    const wheelhouse = json(path.join(bundle, 'wheelhouse/wheelhouse.json'));
    // raw and hooks import no tool library: nothing to carry, nothing even to look up.
    expect(wheelhouse).toMatchObject({ carried: {}, spares: {}, present: {}, requirements: [], bytes: 0 });
    // Two processes: hooks's, which also times raw (paired), and its row's control (raw against its own copy,
    // nothing imported); raw has no timing process of its own.
    expect(
      requests(bundle)
        .map((r: { device: string; tool: { id: string } }) => [r.tool.id, r.device])
        .sort(),
    ).toEqual([
      ['hooks', 'cpu'],
      ['raw', 'cpu'],
    ]);

    // One wheel the base lacks, needing torch: pip must install it offline and find torch in the base.
    await execa('python3', ['-c', PROBE_WHEEL, path.join(bundle, 'wheelhouse')]);
    fs.appendFileSync(path.join(bundle, 'wheelhouse/requirements.txt'), 'bgt-probe==1.0\n');

    const there = await check(['there', '--bundle', bundle, '--out', out, '--python', python]);
    expect(there.exitCode, there.stderr).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(['driver.log', 'gpu-check-run.tar.gz']);
    expect(fs.readFileSync(path.join(out, 'driver.log'), 'utf8')).toMatch(/environment ready: .*benchgrid-gpu-venv/);

    const fin = await check([
      'finish',
      out,
      '--bundle',
      bundle,
      '--results',
      results,
      '--seed',
      PREDECESSOR_RESULTS,
      '--label',
      'dry run',
    ]);
    expect(fin.exitCode, fin.stderr).toBe(0);
    const r = loadResults(path.join(results, 'results.json'));
    expect(r.partial).toBe(false);
    expect(r.cells.map((c) => [c.id, c.status])).toEqual([
      ['A/single_module_output/raw/resnet18', 'ok'],
      ['A/single_module_output/hooks/resnet18', 'ok'],
    ]);
    // The cells ran in the venv the driver built, over the test interpreter's torch.
    const setup = (r.run!.environment_setup as Record<string, unknown>[])[0];
    expect(setup).toMatchObject({
      base_python: python,
      requirements: ['bgt-probe==1.0'],
      installed: { 'bgt-probe': '1.0' },
      resolved_failed: null,
      pip_check: 'No broken requirements found.',
    });
    expect(r.cells[0].runtime?.torch).toBeTruthy();
    const raw = r.cells[0].median_ms!;
    const hooks = r.cells[1].median_ms!;
    const table = fs.readFileSync(path.join(results, 'ratios.md'), 'utf8');
    expect(table.split('\n')[0]).toMatch(
      /^\| group \| contract \| tool \/ raw \| seed \(NVIDIA GeForce RTX 2080 Ti\) \| dry run \(/,
    );
    // hooks paired with raw in its process: the table gives its published paired ratio, not the medians' ratio.
    expect(r.cells[1].paired).toBeTruthy();
    expect(table).toContain(
      `| A | single_module_output | hooks | 1.01 (0.99-1.01) | ${r.cells[1].paired!.published.ratio.toFixed(2)}`,
    );
    expect(raw).toBeGreaterThan(0);
    expect(hooks).toBeGreaterThan(0);
  }, 600_000);

  it('keeps device cuda in every request, and a process on a machine without CUDA records the cell as unsupported', async () => {
    const bundle = path.join(work, 'cuda', 'bundle');
    const out = path.join(work, 'cuda', 'back');
    const prep = await prepare(bundle, 'A/single_module_output/raw/*');
    expect(prep.exitCode, prep.stderr).toBe(0);
    expect(json(path.join(bundle, 'bundle.json')).device).toBe('cuda');
    expect(requests(bundle).map((r: { device: string }) => r.device)).toEqual(['cuda']);
    const there = await check(['there', '--bundle', bundle, '--out', out, '--python', python]);
    expect(there.exitCode, there.stderr).toBe(0);
    // The harness's own result file (what ingest classifies): the process refused CUDA cleanly.
    const job = json(path.join(bundle, 'bundle.json')).jobs[0];
    const result = json(path.join(bundle, job.result));
    expect(result.status).toBe('unsupported');
    expect(result.reason).toMatch(/CUDA is not available in this process/);
  }, 600_000);

  it('refuses bad input with exit 2 and says what to do', async () => {
    const noBundle = await check(['there', '--bundle', path.join(work, 'nothing')]);
    expect(noBundle.exitCode).toBe(2);
    expect(noBundle.stderr).toMatch(/has no bundle.json: run 'scripts\/gpu-check.sh prepare' here first/);
    const badDevice = await check(['prepare', '--device', 'tpu']);
    expect(badDevice.exitCode).toBe(2);
    expect(badDevice.stderr).toMatch(/--device must be cuda or cpu/);
    const noPack = await check(['finish', work]);
    expect(noPack.exitCode).toBe(2);
    expect(noPack.stderr).toMatch(/has no gpu-check-run.tar.gz/);
  });
});

describe('the check spec (specs/resnet18_gpu_check.yaml)', () => {
  it('is the seed matrix on cuda at the short protocol docs/gpu.md states', async () => {
    const dir = path.join(work, 'check-spec');
    const r = await cli(['export', path.join(ROOT, 'specs/resnet18_gpu_check.yaml'), '--out', dir]);
    expect(r.code, r.stderr).toBe(0);
    const m = json(path.join(dir, 'bundle.json'));
    expect(m.device).toBe('cuda');
    const cells = new Set(m.jobs.map((j: { cell: string }) => j.cell));
    expect(cells.size).toBe(56);
    // 2 timing processes per cell but raw's (its 6 cells are timed in their rows' paired processes), 1 memory
    // process per cell, 1 A/A pair per group with a reference, and 2 control processes per paired row and
    // environment (8 of them: a row's tools in the main environment and in their own).
    expect(m.jobs.filter((j: { kind: string }) => j.kind === 'time').length).toBe((56 - 6) * 2);
    expect(m.jobs.filter((j: { kind: string }) => j.kind === 'control').length).toBe(8 * 2);
    expect(m.jobs.length).toBe((56 - 6) * 2 + 56 + 2 + 16);
    const first = json(path.join(dir, m.jobs[0].request));
    expect(first.device).toBe('cuda');
    expect(first.settings).toMatchObject({ warmups: 1, samples: 10, min_samples: 3 });
  });
});
