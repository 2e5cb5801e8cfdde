// The coverage campaign's figures (bench/coverage.sh runs it): from the runs' saved results, so that a later
// rule can be judged again on the same measurements.
//   node bin/node-ts.js bench/coverage.ts summary DIR
// writes bench/results/coverage-<date>.json and the "Run to run" section of docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from 'simple-statistics';
import { compareResults } from '../src/compare/compute.ts';
import { loadResults } from '../src/results/load.ts';
import type { CellResult, Results } from '../src/results/model.ts';
import { coverageSection, spliceCoverage } from './coverage-section.ts';
import { publishFigures } from './publish.ts';

const [command, dirArg] = process.argv.slice(2);
if (command !== 'summary' || !dirArg) {
  process.stderr.write('usage: bench/coverage.ts summary DIR\n');
  process.exit(2);
}
const dir = path.resolve(dirArg);

interface Wall {
  name: string;
  busy: boolean;
  started: number;
  wall_s: number;
}
interface Run extends Wall {
  dir: string;
  results: Results;
}

const walls = (d: string): Wall[] =>
  fs.existsSync(path.join(d, 'walls.jsonl'))
    ? fs
        .readFileSync(path.join(d, 'walls.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
const runsOf = (d: string): Run[] =>
  walls(d)
    .filter((w) => fs.existsSync(path.join(d, w.name, 'results.json')))
    .map((w) => ({ ...w, dir: path.join(d, w.name), results: loadResults(path.join(d, w.name, 'results.json')) }));
const runs = runsOf(dir);
const old = runsOf(path.join(dir, 'before'))[0] ?? null;
const halfWidth = (ci: readonly [number, number]) => Math.sqrt(ci[1] / ci[0]) - 1;
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;
const row = (c: CellResult) => c.contract;
const READ = 'single_module_output';

/** The load during a run: the load average (DIR/load.log, every 10 s) and, per timing process, the other processes' busy cores it recorded. */
function loadOf(run: Run) {
  const file = path.join(dir, 'load.log');
  const samples = fs.existsSync(file)
    ? fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.split(' ').map(Number))
        .filter((p) => p[0] >= run.started && p[0] <= run.started + run.wall_s)
        .map((p) => p[1])
    : [];
  const busy: number[] = [];
  const processes = path.join(run.dir, 'processes');
  for (const cell of fs.existsSync(processes) ? fs.readdirSync(processes) : []) {
    for (const f of fs
      .readdirSync(path.join(processes, cell))
      .filter((x) => /^(time|control)-.*\.result\.json$/.test(x))) {
      const load = JSON.parse(fs.readFileSync(path.join(processes, cell, f), 'utf8')).timing?.load;
      if (load && typeof load.others_busy === 'number') busy.push(load.others_busy);
    }
  }
  return {
    loadavg_median: samples.length ? round(median(samples), 2) : null,
    loadavg_max: samples.length ? round(Math.max(...samples), 2) : null,
    others_busy_median: busy.length ? round(median(busy), 3) : null,
    share_above_0_3: busy.length ? round(busy.filter((b) => b > 0.3).length / busy.length, 3) : null,
    processes: busy.length,
  };
}

const paired = (r: Results) => r.cells.filter((c) => c.status === 'ok' && c.paired);
const ids = [...new Set(runs.flatMap((r) => paired(r.results).map((c) => c.id)))];

/** Per cell, each run's published ratio and interval, whether it holds the median of the other runs' headlines, and the spread of the headlines. */
const cells = ids.map((id) => {
  const per = runs
    .map((r) => {
      const c = r.results.cells.find((x) => x.id === id && x.paired);
      return c
        ? {
            run: r.name,
            busy: r.busy,
            ratio: c.paired!.published.ratio,
            ci95: c.paired!.published.ci95,
            paired_ci95: c.paired!.ci95,
            processes: c.paired!.processes.length,
            stopped_by: c.stopped_by ?? null,
            between_run: c.paired!.published.between_run ?? null,
          }
        : null;
    })
    .filter((x): x is NonNullable<typeof x> => x !== null);
  const held = per.map((p) => {
    const others = median(per.filter((q) => q !== p).map((q) => q.ratio));
    return {
      ...p,
      others_median: others,
      holds: p.ci95[0] <= others && others <= p.ci95[1],
      half_width: halfWidth(p.ci95),
      paired_half_width: halfWidth(p.paired_ci95),
    };
  });
  const spread = (xs: number[]) => (xs.length ? Math.max(...xs) / Math.min(...xs) : null);
  const c0 = runs[0].results.cells.find((x) => x.id === id)!;
  return {
    id,
    row: row(c0),
    tool: c0.tool,
    runs: held,
    max_min_quiet: spread(held.filter((h) => !h.busy).map((h) => h.ratio)),
    max_min_all: spread(held.map((h) => h.ratio)),
  };
});

const count = (xs: { holds: boolean }[]) => ({ holds: xs.filter((x) => x.holds).length, of: xs.length });
const read = cells.filter((c) => c.row === READ);
const coverage = {
  read_row: count(read.flatMap((c) => c.runs)),
  both_rows: count(cells.flatMap((c) => c.runs)),
  quiet_runs_only: count(cells.flatMap((c) => c.runs.filter((r) => !r.busy))),
};
const quietHalfWidths = (cs: typeof cells, f: (r: (typeof cells)[number]['runs'][number]) => number) =>
  median(cs.flatMap((c) => c.runs.filter((r) => !r.busy).map(f)));
const widths = {
  read_row_published_median_quiet: quietHalfWidths(read, (r) => r.half_width),
  read_row_paired_median_quiet: quietHalfWidths(read, (r) => r.paired_half_width),
  both_rows_published_median_quiet: quietHalfWidths(cells, (r) => r.half_width),
  met_target: runs.map((r) => ({ run: r.name, ...stops(paired(r.results)) })),
};

function stops(cs: CellResult[]) {
  const by: Record<string, number> = {};
  for (const c of cs) by[c.stopped_by ?? 'none'] = (by[c.stopped_by ?? 'none'] ?? 0) + 1;
  return by;
}

/** The import taxes: each cell's controlled tax per run, the control's own halves against each other, and the hooks verdicts. */
const contains1 = (ci: readonly [number, number]) => ci[0] <= 1 && 1 <= ci[1];
const taxes = ids.map((id) => {
  const per = runs
    .map((r) => {
      const c = r.results.cells.find((x) => x.id === id);
      const t = c?.import_tax;
      return t
        ? {
            run: r.name,
            busy: r.busy,
            ratio: t.ratio,
            ci95: t.ci95,
            contains_1: contains1(t.ci95),
            uncontrolled: t.uncontrolled?.ratio ?? null,
          }
        : null;
    })
    .filter((x): x is NonNullable<typeof x> => x !== null);
  const excluding = per.filter((p) => !p.contains_1);
  return {
    id,
    tool: id.split('/')[2],
    runs: per,
    contains_1: `${per.filter((p) => p.contains_1).length}/${per.length}`,
    // Over the runs: the geometric mean of the runs' taxes (each run weighs alike).
    pooled: per.length ? Math.exp(per.reduce((s, p) => s + Math.log(p.ratio), 0) / per.length) : null,
    same_sign_when_shown:
      excluding.length === 0 ? null : excluding.every((p) => p.ratio > 1) || excluding.every((p) => p.ratio < 1),
  };
});
const hooks = taxes.filter((t) => t.tool === 'hooks');
const firstFive = new Set(runs.slice(0, 5).map((r) => r.name));
const hooksFive = hooks.flatMap((t) => t.runs.filter((r) => firstFive.has(r.run)));

/** The control itself: its copy against the baseline (what pairing alone gives) and its drift, per run, row and environment. */
const controls = runs.flatMap((r) =>
  r.results.cells
    .filter((c) => c.control?.length)
    .flatMap((c) =>
      c.control!.map((f) => ({
        run: r.name,
        row: c.contract,
        environment: f.environment,
        processes: f.processes.length,
        ratio: f.ratio.ratio,
        ratio_ci95: f.ratio.ci95,
        ratio_contains_1: contains1(f.ratio.ci95),
        drift: f.drift.ratio,
        drift_ci95: f.drift.ci95,
      })),
    ),
);

/** compare of consecutive runs (the real A/A): labelled tools, labelled share of the comparable cells, and the cells' interval half-widths. */
const comparisons = runs.slice(1).map((b, i) => {
  const a = runs[i];
  const cmp = compareResults(a.results, b.results, { before: a.name, after: b.name });
  const comparable = cmp.cells.filter((c) => c.speed.label !== 'unavailable');
  const labelled = comparable.filter((c) => c.speed.label === 'faster' || c.speed.label === 'slower');
  const widths = comparable
    .filter((c) => c.speed.interval)
    .map((c) => ({ id: c.id, hw: Math.sqrt(c.speed.interval!.high / c.speed.interval!.low) - 1 }));
  const hw = widths.map((w) => w.hw);
  const widest = widths.reduce<{ id: string; hw: number } | null>((w, x) => (w === null || x.hw > w.hw ? x : w), null);
  return {
    pair: `${a.name} -> ${b.name}`,
    busy: [a.busy, b.busy],
    comparable: comparable.length,
    labelled: labelled.map((c) => `${c.id}: ${c.speed.label} (x${c.speed.ratio?.toFixed(3)})`),
    labelled_share: labelled.length / Math.max(1, comparable.length),
    tools_labelled: (cmp.tools ?? [])
      .filter((t) => t.label === 'faster' || t.label === 'slower')
      .map((t) => `${t.tool}: ${t.label}`),
    cell_half_width: hw.length
      ? { min: Math.min(...hw), median: median(hw), max: Math.max(...hw), widest: widest!.id }
      : null,
  };
});

const quietWalls = runs.filter((r) => !r.busy).map((r) => r.wall_s);
const out = {
  date: new Date().toISOString().slice(0, 10),
  machine: { cores: os.cpus().length },
  runs: runs.map((r) => ({
    name: r.name,
    busy: r.busy,
    started: new Date(r.started * 1000).toISOString(),
    wall_s: round(r.wall_s, 1),
    between_run: (r.results.run as Record<string, unknown> | null)?.between_run ?? null,
    load: loadOf(r),
  })),
  coverage,
  widths,
  cells,
  taxes,
  hooks: {
    intervals_containing_1_first_five_runs: `${hooksFive.filter((r) => r.contains_1).length}/${hooksFive.length}`,
    pooled_first_five: Math.exp(hooksFive.reduce((s, r) => s + Math.log(r.ratio), 0) / Math.max(1, hooksFive.length)),
  },
  controls,
  comparisons,
  wall: {
    quiet_median_s: quietWalls.length ? median(quietWalls) : null,
    before: old ? { tree: 'git HEAD before this change', wall_s: round(old.wall_s, 1), load: loadOf(old) } : null,
  },
};
const file = publishFigures('coverage', out.date, out, (doc, source) =>
  spliceCoverage(doc, coverageSection(out, source)),
);
process.stdout.write(
  JSON.stringify(
    { coverage, widths: { ...widths, met_target: undefined }, hooks: out.hooks, wall: out.wall },
    null,
    2,
  ) + '\n',
);
process.stderr.write(
  `bench coverage: wrote ${path.relative(process.cwd(), file)} and the "Run to run" section of docs/performance.md\n`,
);

export type CoverageFigures = typeof out;
