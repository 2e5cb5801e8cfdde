// The paired-measurement campaign's figures (bench/pairing.sh runs it): from the runs' saved results, so that a
// later rule is judged again on the same measurements.
//   node bin/node-ts.js bench/pairing.ts summary DIR
// writes bench/results/pairing-<date>.json and the "Pairing" section of docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from 'simple-statistics';
import { loadResults } from '../src/results/load.ts';
import { pairedSections, splicePairing } from './pairing-section.ts';
import { publishFigures } from './publish.ts';
import { campaignFigures, type Run } from './pairing-figures.ts';

const [command, dirArg] = process.argv.slice(2);
if (command !== 'summary' || !dirArg) {
  process.stderr.write('usage: bench/pairing.ts summary DIR\n');
  process.exit(2);
}
const dir = path.resolve(dirArg);

type Wall = {
  name: string;
  probe: string;
  started: string;
  wall_s: number;
  spec?: string;
  load_start?: number[];
  load_end?: number[];
};

function runsOf(d: string): Run[] {
  const file = path.join(d, 'walls.json');
  const walls: Wall[] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
  const resumed = walls.some((w) => w.name === 'N1') ? null : resumedRun(d, 'N1', 'copy');
  return [...walls, ...(resumed ? [resumed] : [])].map((w) => ({
    ...w,
    dir: path.join(d, w.name),
    results: loadResults(path.join(d, w.name, 'results.json')),
  }));
}

/**
 * A run that bench/noise.ts did not time start to end (N1, resumed after an interruption): its span from the
 * journal, from its start to its last process's end, so that the load during it can be read.
 */
function resumedRun(d: string, name: string, probe: string): Wall | null {
  const journal = path.join(d, name, 'journal.jsonl');
  if (!fs.existsSync(path.join(d, name, 'results.json')) || !fs.existsSync(journal)) return null;
  const records = fs
    .readFileSync(journal, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const started = records[0].started as string;
  const end = Math.max(
    ...records.filter((r) => r.type === 'process').map((r) => Date.parse(r.started) + r.wall_s * 1000),
  );
  return { name, probe, started, wall_s: (end - Date.parse(started)) / 1000, spec: 'resnet18' };
}

/** The load average over a run's span, from DIR/load.log (sampled every 30 s). */
function loadDuring(run: Run): { median: number | null; max: number | null } {
  const file = path.join(dir, 'load.log');
  if (!fs.existsSync(file)) return { median: null, max: null };
  const start = Date.parse(run.started) / 1000;
  const end = start + run.wall_s;
  const values = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .filter((p) => Number(p[0]) >= start && Number(p[0]) <= end)
    .map((p) => Number(p[1]));
  return values.length ? { median: median(values), max: Math.max(...values) } : { median: null, max: null };
}

const runs = [...runsOf(dir), ...runsOf(path.join(dir, 'load'))];
const by = (name: string) => runs.find((r) => r.name === name) ?? null;
const figures = campaignFigures(by, loadDuring);
const out = {
  date: new Date().toISOString().slice(0, 10),
  machine: { cores: os.cpus().length, loadavg: os.loadavg() },
  runs: runs.map((r) => ({
    name: r.name,
    probe: r.probe,
    spec: r.spec ?? 'resnet18',
    started: r.started,
    wall_s: r.wall_s,
    load: loadDuring(r),
  })),
  ...figures,
};
const file = publishFigures('pairing', out.date, out, (doc, source) =>
  splicePairing(doc, pairedSections(out as never, source)),
);
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
process.stderr.write(
  `bench pairing: wrote ${path.relative(process.cwd(), file)} and the Pairing section of docs/performance.md\n`,
);
