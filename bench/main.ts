// `npm run bench`: benchgrid's own performance. Prints one table, writes
// bench/results/<date>.json and regenerates docs/performance.md.
//   npm run bench -- [--rounds N] [--matrix-rounds N] [--python PATH] [--skip-matrix] [--skip-processes]
import fs from 'node:fs';
import { newestNoise, noiseSection } from './noise-section.ts';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { forkLauncher } from '../src/executors/local/forkserver.ts';
import { coldLauncher, type Launcher } from '../src/executors/local/launcher.ts';
import { REPO_ROOT } from '../src/repository.ts';
import { figures } from './figures.ts';
import { matrixRun, type MatrixRun } from './matrix.ts';
import { measurePlan, type PlanFigure } from './plan10k.ts';
import { handProcess, harnessProcess, type ProcessRun } from './processes.ts';
import { markdown, table, type BenchRecord } from './render.ts';
import { benchPython, deriveSpec } from './setup.ts';

/** The reduced protocol of the whole-matrix runs (documented in docs/performance.md). */
const MATRIX_PROTOCOL = {
  warmups: 1,
  samples: 3,
  min_samples: 1,
  processes: 1,
  budget_s_per_cell: 2,
  memory_runs: 0,
  aa_pairs: 0,
};
const RAW = 'A/single_module_output/raw/resnet18';
const HOOKS = 'A/single_module_output/hooks/resnet18';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '12' },
    'matrix-rounds': { type: 'string', default: '1' },
    python: { type: 'string' },
    'skip-matrix': { type: 'boolean', default: false },
    'skip-processes': { type: 'boolean', default: false },
  },
});
const rounds = Number(args.rounds);
const matrixRounds = Number(args['matrix-rounds']);
const log = (s: string) => process.stderr.write(`bench: ${s}\n`);
const rotate = <T>(xs: T[], k: number) => xs.map((_, i) => xs[(i + k) % xs.length]);
const load1 = () => os.loadavg()[0].toFixed(2);

const started = new Date();
const loadStart = load1();
const python = await benchPython(args.python);
log(`python ${python}; load average ${loadStart} on ${os.cpus().length} cores`);

log('validate + plan of a generated 10,000-cell spec');
const plan: PlanFigure = await measurePlan();

const runs: ProcessRun[] = [];
let serverReadyS: number | null = null;
const defaults = await deriveSpec({}, 'resnet18_cpu_default');
if (!args['skip-processes']) {
  const { loaded } = defaults;
  const protocol = loaded.spec.protocol;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-bench-proc-'));
  const cold = await coldLauncher(python, protocol.threads);
  const t0 = performance.now();
  // memoryCold off: the memory figure compares a forked child's peak RSS with a cold process's.
  const fork: Launcher = await forkLauncher(python, protocol.threads, { memoryCold: false });
  serverReadyS = (performance.now() - t0) / 1000;
  const sides: Record<string, (round: number) => Promise<ProcessRun>> = {
    'raw/cold': (r) => harnessProcess(loaded, protocol, RAW, cold, python, dir, 'raw/cold', r),
    hand: (r) => handProcess(loaded, protocol, python, dir, 'hand', r),
    'raw/fork': (r) => harnessProcess(loaded, protocol, RAW, fork, python, dir, 'raw/fork', r),
    'hooks/cold': (r) => harnessProcess(loaded, protocol, HOOKS, cold, python, dir, 'hooks/cold', r),
    'hooks/fork': (r) => harnessProcess(loaded, protocol, HOOKS, fork, python, dir, 'hooks/fork', r),
    // The A/A partner at the default start (fork on the CPU): the same cell in its own processes, same rounds.
    'hooks/fork#B': (r) => harnessProcess(loaded, protocol, HOOKS, fork, python, dir, 'hooks/fork#B', r),
  };
  try {
    for (let r = 0; r < rounds; r++) {
      for (const side of rotate(Object.keys(sides), r)) {
        const run = await sides[side](r);
        runs.push(run);
        log(`round ${r + 1}/${rounds} ${side}: median ${run.median_ms.toFixed(2)} ms, wall ${run.wall_s.toFixed(2)} s`);
      }
    }
    for (let r = 0; r < 2; r++) {
      for (const start of rotate(['cold', 'fork'], r)) {
        const run = await harnessProcess(
          loaded,
          protocol,
          HOOKS,
          start === 'cold' ? cold : fork,
          python,
          dir,
          `mem/${start}`,
          r,
          'memory',
        );
        runs.push(run);
        log(`memory ${r + 1}/2 ${start}: peak RSS ${((run.peak_rss_bytes ?? 0) / 2 ** 20).toFixed(0)} MiB`);
      }
    }
  } finally {
    await fork.close();
    await cold.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const matrix: MatrixRun[] = [];
let subset = defaults.subset;
if (!args['skip-matrix']) {
  const derived = await deriveSpec(MATRIX_PROTOCOL, 'resnet18_cpu_reduced');
  subset = derived.subset;
  const planned = derived.loaded.plan.cells.filter((c) => c.status === 'planned').length;
  log(
    `whole matrix: ${planned} planned cells${derived.subset ? ` (subset: ${derived.subset.tools.join(', ')})` : ''}, ${matrixRounds} round(s) of cold and fork`,
  );
  for (let r = 0; r < matrixRounds; r++) {
    for (const start of rotate(['cold', 'fork'] as const, r)) {
      const m = await matrixRun(derived, python, start, r);
      matrix.push(m);
      log(
        `matrix ${start}: ${m.wall_s.toFixed(1)} s wall, ${m.processes} processes, timed work ${m.timed_s.toFixed(1)} s`,
      );
    }
  }
  fs.rmSync(path.dirname(derived.file), { recursive: true, force: true });
}

const versions = JSON.parse(
  (
    await execa(
      python,
      [
        '-c',
        'import json, platform, torch, torchvision; print(json.dumps([platform.python_version(), torch.__version__, torchvision.__version__]))',
      ],
      { env: { PATH: process.env.PATH ?? '' } },
    )
  ).stdout,
);
const date = started.toISOString().slice(0, 10);
const record: BenchRecord = {
  bench: 1,
  date,
  started: started.toISOString(),
  finished: new Date().toISOString(),
  machine: {
    cpu: os.cpus()[0]?.model?.trim() ?? 'unknown',
    cores: os.cpus().length,
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    node: process.version,
    python: versions[0],
    torch: versions[1],
    torchvision: versions[2],
    loadavg_start: loadStart,
    loadavg_end: load1(),
  },
  settings: {
    rounds,
    'matrix rounds': matrixRounds,
    'process protocol': 'resnet18_cpu default',
    'matrix protocol': MATRIX_PROTOCOL,
    'fork server ready (s)': serverReadyS === null ? 'n/a' : serverReadyS.toFixed(2),
  },
  subset,
  figures: figures(runs, plan, matrix, defaults.loaded.spec.protocol.processes),
  raw: { plan, processes: runs, matrix },
};
fs.rmSync(path.dirname(defaults.file), { recursive: true, force: true });
fs.mkdirSync(path.join(REPO_ROOT, 'bench/results'), { recursive: true });
fs.writeFileSync(path.join(REPO_ROOT, 'bench/results', `${date}.json`), JSON.stringify(record, null, 1) + '\n');
// The noise campaign (bench/noise.sh) is too long for every bench run: its newest figures are kept.
const noise = newestNoise(path.join(REPO_ROOT, 'bench/results'));
fs.writeFileSync(
  path.join(REPO_ROOT, 'docs/performance.md'),
  markdown(record, noise ? noiseSection(noise.summary, path.relative(REPO_ROOT, noise.file)) : []),
);
process.stdout.write(table(record) + '\n');
log(`wrote bench/results/${date}.json and docs/performance.md`);
