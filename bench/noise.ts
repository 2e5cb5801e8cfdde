// The noise figures that need long runs on a quiet machine: not run by `npm run bench`
// (about 100 minutes of CPU) and worthless while the machine is shared. bench/noise.sh runs the whole
// campaign; this file has its three steps.
//   node bin/node-ts.js bench/noise.ts run DIR NAME [--schedule interleaved|sequential] [--probe copy|slowed10|slowed5]
//                                        [--precision X --min-processes N --processes N] [--spec resnet18|gpt2|fixtures]
//   node bin/node-ts.js bench/noise.ts summary DIR
// `run` writes DIR/NAME.yaml (specs/resnet18_cpu.yaml at its default protocol, plus a `probe` tool in group
// A: the hooks reference under another name, or that reference made 10% slower on purpose, from
// test/fixtures/runners/slowed), runs it into DIR/NAME/ and records the wall time in DIR/walls.json.
// `summary` reads every run of DIR and writes bench/results/noise-<date>.json:
// 1. real A/A: `compare` of the first and the second interleaved run (and of the two sequential ones): the
//    share of comparable cells labelled faster or slower (target <= 5%), and the probe slowed 10% between
//    the two runs (target: labelled slower);
// 2. the median over cells of |run1/run2 - 1| of cell medians, interleaved against sequential (target:
//    interleaved at least 30% lower);
// 3. the A/A noise of the reference cell in each run at the default protocol (target: median <= 1.5%);
// 4. the precision run against the default runs: wall time (target 1.5x faster), statuses, exactness
//    verdicts, and medians within the slower default run's A/A noise.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { median } from 'simple-statistics';
import { stringify } from 'yaml';
import { loadResults } from '../src/results/load.ts';
import { REPO_ROOT } from '../src/repository.ts';
import { mergedData } from './setup.ts';
import { runPool } from '../src/results/cell-stop.ts';
import { aaOf, isProbe, PROBE, realAA, toolsAllPairs } from './noise-compare.ts';
import { noiseSection, spliceNoise } from './noise-section.ts';
import { publishFigures } from './publish.ts';

const SLOWED_RUNNER = path.join(REPO_ROOT, 'test/fixtures/runners/slowed');
const log = (s: string) => process.stderr.write(`bench noise: ${s}\n`);

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    schedule: { type: 'string', default: 'interleaved' },
    probe: { type: 'string', default: 'copy' },
    precision: { type: 'string' },
    'min-processes': { type: 'string' },
    processes: { type: 'string' },
    only: { type: 'string' },
    spec: { type: 'string', default: 'resnet18' },
  },
});
const [command, dirArg, name] = positionals;
if (!dirArg || !['run', 'summary', 'achieved'].includes(command) || (command !== 'summary' && !name)) {
  process.stderr.write('usage: bench/noise.ts run DIR NAME [options] | achieved DIR NAME | summary DIR\n');
  process.exit(2);
}
const dir = path.resolve(dirArg);
fs.mkdirSync(dir, { recursive: true });
const wallsFile = path.join(dir, 'walls.json');
type Wall = {
  name: string;
  schedule: string;
  probe: string;
  precision: number | null;
  started: string;
  wall_s: number;
  spec?: string;
  load_start?: number[];
  load_end?: number[];
};
const walls = (): Wall[] => (fs.existsSync(wallsFile) ? JSON.parse(fs.readFileSync(wallsFile, 'utf8')) : []);

/** resnet18_cpu (extends resolved) with the probe tool in group A and `protocol` over its own. */
async function writeSpec(file: string, probeAdapter: string, protocol: Record<string, unknown>): Promise<void> {
  const data = await mergedData();
  data.name = 'resnet18_cpu_noise';
  data.protocol = { ...data.protocol, ...protocol };
  data.runners = { ...(data.runners ?? {}), slowed: SLOWED_RUNNER };
  data.tools[PROBE] = { label: 'hooks again (noise probe)', runner: 'slowed', adapter: probeAdapter };
  data.groups.A.tools.push(PROBE);
  // The page lists the spec's own tools; the probe is not one of them.
  delete data.page;
  fs.writeFileSync(file, stringify(data));
}

const PAIRED_RUNNER = path.join(REPO_ROOT, 'test/fixtures/runners/paired');

/**
 * The paired campaign's fixtures on resnet18_cpu's subject and protocol (bench/pairing.sh): raw, the hooks
 * reference, a tool that is exactly raw and one that slows torch on import (TAX in taxed.py), on every contract, and the
 * forward plus a known matrix product next to that product alone on one (test/fixtures/runners/paired).
 */
async function writeFixtureSpec(file: string): Promise<void> {
  const data = await mergedData();
  data.name = 'resnet18_cpu_pairing_fixtures';
  data.runners = { ...(data.runners ?? {}), paired: PAIRED_RUNNER };
  for (const t of ['rawclone', 'taxed', 'extra', 'matmul']) data.tools[t] = { label: t, runner: 'paired' };
  data.groups = {
    A: {
      title: 'paired fixtures',
      reference: null,
      subjects: data.groups.A.subjects,
      contracts: data.groups.A.contracts,
      tools: ['raw', 'rawclone', 'taxed', 'extra', 'matmul'],
      unsupported: [
        {
          tools: ['extra', 'matmul'],
          contracts: data.groups.A.contracts.filter((c: string) => c !== 'single_module_output'),
          reason: 'the known extra work is measured on one contract',
        },
      ],
    },
  };
  delete data.page;
  fs.writeFileSync(file, stringify(data));
}

async function runOne(runName: string): Promise<void> {
  const protocol: Record<string, unknown> = {};
  if (args.precision) protocol.precision = Number(args.precision);
  if (args['min-processes']) protocol.min_processes = Number(args['min-processes']);
  if (args.processes) protocol.processes = Number(args.processes);
  const spec =
    args.spec === 'gpt2' ? path.join(REPO_ROOT, 'specs/gpt2_tiny_cpu.yaml') : path.join(dir, `${runName}.yaml`);
  if (args.spec === 'fixtures') await writeFixtureSpec(spec);
  else if (args.spec === 'resnet18') await writeSpec(spec, args.probe!, protocol);
  else if (args.spec !== 'gpt2') throw new Error(`--spec ${args.spec}: resnet18, gpt2 or fixtures`);
  const load_start = os.loadavg();
  const out = path.join(dir, runName);
  const started = new Date();
  log(
    `${runName}: ${args.schedule}, probe ${args.probe}${args.precision ? `, precision ${args.precision}` : ''}, started ${started.toISOString()}`,
  );
  const t0 = performance.now();
  await execa(
    process.execPath,
    [
      path.join(REPO_ROOT, 'bin/benchgrid.js'),
      'run',
      spec,
      '--out',
      out,
      '--schedule',
      args.schedule!,
      ...(args.only ? ['--only', args.only] : []),
    ],
    {
      stdio: 'inherit',
      env: {
        BENCHGRID_ALLOW_DIRS: [process.env.BENCHGRID_ALLOW_DIRS, path.dirname(SLOWED_RUNNER), dir]
          .filter(Boolean)
          .join(path.delimiter),
      },
    },
  );
  const wall_s = (performance.now() - t0) / 1000;
  const entry: Wall = {
    name: runName,
    schedule: args.schedule!,
    probe: args.probe!,
    precision: args.precision ? Number(args.precision) : null,
    started: started.toISOString(),
    wall_s,
    spec: args.spec!,
    load_start,
    load_end: os.loadavg(),
  };
  fs.writeFileSync(wallsFile, JSON.stringify([...walls().filter((w) => w.name !== runName), entry], null, 2) + '\n');
  log(`${runName}: ${(wall_s / 60).toFixed(1)} min`);
}

function summary(): void {
  const ws = walls();
  const runs = ws.map((w) => ({ ...w, results: loadResults(path.join(dir, w.name, 'results.json')) }));
  const defaults = runs.filter((r) => r.precision === null);
  const pairOf = (schedule: string) => {
    const rs = defaults.filter((r) => r.schedule === schedule);
    return rs.length >= 2 ? realAA(rs[0], rs[1]) : null;
  };
  const interleaved = pairOf('interleaved');
  const sequential = pairOf('sequential');
  const aa = defaults.map((r) => ({ run: r.name, aa: aaOf(r.results) }));
  const precise = runs.find((r) => r.precision !== null);
  let precision: Record<string, unknown> | null = null;
  if (precise) {
    const base = defaults.filter((r) => r.schedule === 'interleaved');
    const slower = base.reduce((x, y) => (x.wall_s > y.wall_s ? x : y));
    const aaFloor = Math.max(...aaOf(slower.results), 0);
    const byId = new Map(slower.results.cells.map((c) => [c.id, c]));
    const cells = precise.results.cells.filter((c) => !isProbe(c.id));
    const same = cells.filter((c) => byId.get(c.id)?.status === c.status && byId.get(c.id)?.exact === c.exact);
    const timed = cells.filter((c) => c.median_ms && byId.get(c.id)?.median_ms);
    const change = timed.map((c) => Math.abs(c.median_ms! / byId.get(c.id)!.median_ms! - 1));
    precision = {
      value: precise.precision,
      wall_s: precise.wall_s,
      default_interleaved_wall_s: base.map((r) => r.wall_s),
      speedup_vs_median_default: median(base.map((r) => r.wall_s)) / precise.wall_s,
      same_status_and_exactness: `${same.length}/${cells.length}`,
      differing: cells
        .filter((c) => !same.includes(c))
        .map((c) => `${c.id}: ${byId.get(c.id)?.status}/${byId.get(c.id)?.exact} -> ${c.status}/${c.exact}`),
      medians_within_aa_of_slower_run: `${change.filter((x) => x <= aaFloor).length}/${timed.length} (A/A ${(aaFloor * 100).toFixed(1)}%)`,
      median_abs_change_vs_slower_run: change.length ? median(change) : null,
      cells_stopped_by: Object.fromEntries(
        ['precision', 'processes', 'budget'].map((k) => [k, cells.filter((c) => (c as any).stopped_by === k).length]),
      ),
    };
  }
  const out = {
    date: new Date().toISOString().slice(0, 10),
    machine: { cores: os.cpus().length, loadavg: os.loadavg() },
    runs: ws,
    real_aa: { interleaved, sequential },
    tools_all_pairs: toolsAllPairs(runs),
    run_to_run: {
      interleaved: interleaved?.median_abs_change_of_medians ?? null,
      sequential: sequential?.median_abs_change_of_medians ?? null,
      reduction:
        interleaved && sequential?.median_abs_change_of_medians
          ? 1 - interleaved.median_abs_change_of_medians! / sequential.median_abs_change_of_medians
          : null,
    },
    aa_noise: { per_run: aa, median: aa.flatMap((r) => r.aa).length ? median(aa.flatMap((r) => r.aa)) : null },
    precision,
    between_processes: runs.map((r) => {
      const pool = runPool(r.results.cells.filter((c) => !isProbe(c.id)));
      return { run: r.name, pooled_sd: pool ? Math.sqrt(pool.variance) : null, cells: pool?.cells ?? 0 };
    }),
  };
  const file = publishFigures('noise', out.date, out, (doc, source) =>
    spliceNoise(doc, noiseSection(out as never, source)),
  );
  log(`wrote the noise section of docs/performance.md`);
  process.stdout.write(JSON.stringify(out, null, 2) + '\n');
  log(`wrote ${path.relative(process.cwd(), file)}`);
}

if (command === 'run') await runOne(name);
else if (command === 'achieved') achieved(name);
else summary();

/**
 * The precision the default protocol achieved in run NAME: the median over its measured cells of the
 * half-width of their median's 95% interval (src/sampling/precision.ts, with the run's pool). The precision
 * run asks for this, so that it is judged at the precision the default protocol delivers.
 */
function achieved(runName: string): void {
  const r = loadResults(path.join(dir, runName, 'results.json'));
  const hw = r.cells
    .filter((c) => !isProbe(c.id) && c.precision_half_width != null)
    .map((c) => c.precision_half_width!);
  if (hw.length === 0) throw new Error(`${runName}: no cell has a precision_half_width`);
  process.stdout.write(`${median(hw).toFixed(4)}\n`);
}
