// The bench-change campaign (docs/performance.md, "bench-change: base against base"): how often the tool
// author's gate fires on noise, and whether it sees a real 10% slowdown. hookkit (test/fixtures/sources/
// hookkit) in a local git repository, as the suite's bench-change test makes it, with a committed branch
// `slow10` that spins after every hookkit forward for a tenth of that forward's time; then, at the spec's
// protocol below and bench-change's defaults (no --threshold):
//   QUIET runs of base against base, alone on the machine;
//   BUSY runs of base against base with one busy CPU process beside each;
//   SLOW runs of base against slow10, alone.
//   node bin/node-ts.js bench/change-campaign.ts DIR [QUIET=10] [BUSY=5] [SLOW=5]
// writes DIR/runs.jsonl as it goes (an interrupted campaign resumes), then bench/results/change-<date>.json
// and prints the figures.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import type { ChangeReport } from '../src/change/render.ts';
import { REPO_ROOT } from '../src/repository.ts';
import { hookkitChange } from '../test/helpers/hookkit-change.ts';
import { commitSlowdown, makeToolRepo, writeSourcedSpec } from '../test/source/tool-repo.ts';
import { spliceSection } from './splice.ts';
import { publishFigures } from './publish.ts';

// A tool author's small spec: three contracts of hookkit beside hooks (no raw: bench-change adds it), three
// processes per side, ten samples each.
const PROTOCOL =
  '{ warmups: 2, samples: 10, processes: 3, min_samples: 5, budget_s_per_cell: 20, memory_runs: 0, aa_pairs: 0, timeout_s: 120 }';

const HEADING = '## bench-change: base against base, and a 10% slowdown';
const [dirArg, quietArg, busyArg, slowArg] = process.argv.slice(2);
if (!dirArg) {
  process.stderr.write('usage: bench/change-campaign.ts DIR [QUIET=10] [BUSY=5] [SLOW=5]\n');
  process.exit(2);
}
const dir = path.resolve(dirArg);
const counts = { quiet: Number(quietArg ?? 10), busy: Number(busyArg ?? 5), slow: Number(slowArg ?? 5) };
fs.mkdirSync(dir, { recursive: true });

interface Outcome {
  name: string;
  kind: 'quiet' | 'busy' | 'slow';
  code: number;
  wall_s: number;
  loadavg_start: number;
  loadavg_end: number;
  tool: { label: string; ratio: number | null; interval: { low: number; high: number } | null } | null;
  cells: { id: string; label: string; ratio: number | null; paired: string | null; half_width: number | null }[];
}

/** How many of a run's cells bench-change labelled changed, either way. */
function cellsLabelled(o: Outcome): number {
  return o.cells.filter((c) => c.label === 'slower' || c.label === 'faster').length;
}

async function workspace(): Promise<{ spec: string; repo: string }> {
  const spec = path.join(dir, 'sourced.yaml');
  const repo = path.join(dir, 'hookkit');
  if (!fs.existsSync(repo)) {
    writeSourcedSpec(dir, { protocol: PROTOCOL, raw: false });
    await makeToolRepo(repo);
    await commitSlowdown(repo, { extra: 0.1, branch: 'slow10' });
  }
  return { spec, repo };
}

/** One busy CPU process (a shell loop), as a user's other work would be. */
const burner = (): ChildProcess => spawn('sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' });

async function one(name: string, kind: Outcome['kind'], spec: string, repo: string): Promise<Outcome> {
  const busy = kind === 'busy' ? burner() : null;
  const started = Date.now();
  const loadavg_start = os.loadavg()[0];
  const head = kind === 'slow' ? 'git:slow10' : 'git:main';
  const r = await execa(
    process.execPath,
    [path.join(REPO_ROOT, 'bin/benchgrid.js'), ...hookkitChange(spec, head, path.join(dir, name)), '--json'],
    { cwd: repo, reject: false, env: { NO_COLOR: '1' }, stdin: 'ignore' },
  );
  busy?.kill('SIGKILL');
  const report = r.stdout ? (JSON.parse(r.stdout) as ChangeReport) : null;
  fs.writeFileSync(path.join(dir, `${name}.stderr`), r.stderr);
  const t = report?.comparison.tools?.[0] ?? null;
  return {
    name,
    kind,
    code: r.exitCode ?? -1,
    wall_s: (Date.now() - started) / 1000,
    loadavg_start,
    loadavg_end: os.loadavg()[0],
    tool: t && { label: t.label, ratio: t.ratio, interval: t.interval },
    cells: (report?.comparison.cells ?? []).map((c) => ({
      id: c.id,
      label: c.speed.label,
      ratio: c.speed.ratio,
      paired: c.speed.paired ?? null,
      half_width: c.speed.interval ? Math.sqrt(c.speed.interval.high / c.speed.interval.low) - 1 : null,
    })),
  };
}

const { spec, repo } = await workspace();
const log = path.join(dir, 'runs.jsonl');
const done: Outcome[] = fs.existsSync(log)
  ? fs
      .readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
// Quiet and loaded base-against-base runs alternate with the slowdown's, so that a drift of the machine over the campaign reaches all three.
const plan: { name: string; kind: Outcome['kind'] }[] = [];
for (let i = 0; i < Math.max(counts.quiet, counts.busy, counts.slow); i++) {
  if (i < counts.quiet) plan.push({ name: `aa-quiet-${i + 1}`, kind: 'quiet' });
  if (i < counts.slow) plan.push({ name: `slow10-${i + 1}`, kind: 'slow' });
  if (i < counts.busy) plan.push({ name: `aa-busy-${i + 1}`, kind: 'busy' });
}
for (const p of plan) {
  if (done.some((d) => d.name === p.name)) continue;
  const o = await one(p.name, p.kind, spec, repo);
  fs.appendFileSync(log, JSON.stringify(o) + '\n');
  done.push(o);
  process.stderr.write(
    `bench change: ${o.name}: exit ${o.code}, hookkit ${o.tool?.label ?? 'n/a'} x${o.tool?.ratio?.toFixed(3) ?? 'n/a'}, ${cellsLabelled(o)} of ${o.cells.length} cells labelled, ${o.wall_s.toFixed(0)} s, load ${o.loadavg_start.toFixed(2)}-${o.loadavg_end.toFixed(2)}\n`,
  );
}

const of = (kind: Outcome['kind']) => done.filter((d) => d.kind === kind);
const labelled = (o: Outcome) => o.tool !== null && (o.tool.label === 'slower' || o.tool.label === 'faster');
/** What runs of base against base found: each was noise, so every label is a false alarm. */
const baseAgainstBase = (runs: Outcome[]) => ({
  runs: runs.length,
  tool_labelled: runs.filter(labelled).length,
  cells_labelled: runs.reduce((s, o) => s + cellsLabelled(o), 0),
  cells: runs.reduce((s, o) => s + o.cells.length, 0),
});
const figures = {
  date: new Date().toISOString().slice(0, 10),
  protocol: PROTOCOL,
  machine: { cores: os.cpus().length },
  aa_quiet: baseAgainstBase(of('quiet')),
  aa_busy: baseAgainstBase(of('busy')),
  slow10: {
    runs: of('slow').length,
    tool_slower: of('slow').filter((o) => o.tool?.label === 'slower').length,
    ratios: of('slow').map((o) => o.tool?.ratio ?? null),
  },
  runs: done,
};
publishFigures('change', figures.date, figures, (doc, source) => spliceSection(doc, HEADING, section(source)));
process.stdout.write(JSON.stringify({ ...figures, runs: undefined }, null, 2) + '\n');

/** The "bench-change: base against base" section of docs/performance.md, from the figures above. */
function section(source: string): string[] {
  const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
  const row = (o: Outcome) => {
    const t = o.tool;
    const hw = o.cells.map((c) => c.half_width).filter((x): x is number => x !== null);
    return `| ${o.name} | ${o.kind === 'busy' ? 'one busy CPU process' : 'nothing'} | ${o.loadavg_start.toFixed(2)}, ${o.loadavg_end.toFixed(2)} | ${Math.round(o.wall_s)} s | ${t ? `${t.label} x${t.ratio?.toFixed(3) ?? 'n/a'}${t.interval ? ` (${t.interval.low.toFixed(3)}-${t.interval.high.toFixed(3)})` : ''}` : 'n/a'} | ${cellsLabelled(o)} of ${o.cells.length} | ${hw.length ? `${pct(Math.min(...hw))}-${pct(Math.max(...hw))}` : 'n/a'} | ${o.code} |`;
  };
  const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');
  const q = figures.aa_quiet;
  const b = figures.aa_busy;
  const s10 = figures.slow10;
  return [
    HEADING,
    '',
    `Measured by \`bench/change-campaign.ts\` (raw figures in \`${source}\`) on this 2-core machine, ${figures.date}: hookkit (\`test/fixtures/sources/hookkit\`) in a local git repository, its three contracts beside hooks on a ResNet-18 with 32x32 inputs, at \`${PROTOCOL}\` and bench-change's defaults (no \`--threshold\`); the spec has no raw tool, so bench-change adds it and both sides pair. Base against base alone on the machine, base against base with one busy CPU process beside it, and base against a committed branch \`slow10\` whose hookkit spins after every forward for a tenth of that forward's time (a 10% slowdown of its calls), interleaved in that order. Load average: at the start and end of each run.`,
    '',
    '| figure | value | target | |',
    '|---|---|---|---|',
    `| base against base, quiet: runs with the tool labelled | ${q.tool_labelled} of ${q.runs} (cells labelled: ${q.cells_labelled} of ${q.cells}) | 0 of 10 | ${verdict(q.tool_labelled === 0 && q.runs >= 10)} |`,
    `| base against base, one busy CPU process beside: runs with the tool labelled | ${b.tool_labelled} of ${b.runs} (cells labelled: ${b.cells_labelled} of ${b.cells}) | 0 of 5 | ${verdict(b.tool_labelled === 0 && b.runs >= 5)} |`,
    `| the 10% slowdown: runs with the tool labelled slower | ${s10.tool_slower} of ${s10.runs} (ratios ${s10.ratios.map((r) => (r === null ? 'n/a' : r.toFixed(3))).join(', ')}) | 5 of 5 | ${verdict(s10.tool_slower === s10.runs && s10.runs >= 5)} |`,
    '',
    "| run | beside it | load average (start, end) | wall time | hookkit, head/base over its cells | cells labelled | cells' 95% half-widths | exit |",
    '|---|---|---|---|---|---|---|---|',
    ...figures.runs.map(row),
    '',
  ];
}
