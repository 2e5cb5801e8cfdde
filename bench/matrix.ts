// Whole-matrix runs through the real CLI (`benchgrid run`, Node's start included), cold and forked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { readJournal } from '../src/records/journal.ts';
import { loadResults } from '../src/results/load.ts';
import { REPO_ROOT } from '../src/repository.ts';
import type { DerivedSpec } from './setup.ts';
import { sum } from './stats.ts';

/** What one whole-matrix run cost. */
export interface MatrixRun {
  start: 'cold' | 'fork';
  round: number;
  wall_s: number;
  processes: number;
  cells: { ok: number; error: number; unsupported: number };
  /** CPU time (user + system) of the whole run's process tree, from this process's reaped-children counters. */
  cpu_s: number;
  /** 1-minute load average before and after the run. */
  load: [number, number];
  /** Sum over processes of the `timed` phase: the samples themselves. */
  timed_s: number;
  /** Sum over processes of warm-up + timed (what a benchmark of these calls cannot skip). */
  warmup_timed_s: number;
  /** Processes whose cell the plan declared unsupported (must be 0). */
  unsupported_processes: number;
  /** What the results file records as the run's start mode, and per process. */
  recorded_start: unknown;
  per_process_starts: string[];
  /** Per cell: status and exactness verdict (compared between start modes). */
  verdicts: Record<string, string>;
  /** Every process: its cell, the tool library it imported (null: plain torch), wall time and phases. */
  detail: { cell: string; library: string | null; wall_s: number; phases_s: Record<string, number | null> }[];
}

/** Runs the spec once with `start`; throws with the CLI's stderr when it fails. */
export async function matrixRun(
  derived: DerivedSpec,
  python: string,
  start: 'cold' | 'fork',
  round: number,
): Promise<MatrixRun> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), `benchgrid-bench-matrix-${start}-`));
  const dir = path.join(out, 'run');
  const cpu0 = childrenCpuS();
  const load0 = os.loadavg()[0];
  const t0 = performance.now();
  const r = await execa(
    process.execPath,
    [path.join(REPO_ROOT, 'bin/benchgrid.js'), 'run', derived.file, '--out', dir, '--python', python, '--start', start],
    {
      reject: false,
      stdin: 'ignore',
      env: { NO_COLOR: '1' },
      cwd: REPO_ROOT,
    },
  );
  const wall = (performance.now() - t0) / 1000;
  const cpu = childrenCpuS() - cpu0;
  const load1 = os.loadavg()[0];
  if (r.exitCode !== 0)
    throw new Error(
      `bench: benchgrid run --start ${start} exited ${r.exitCode}:\n${r.stderr.split('\n').slice(-15).join('\n')}`,
    );
  const records = readJournal(dir).records;
  const results = loadResults(path.join(dir, 'results.json'));
  const unsupported = new Set(derived.loaded.plan.cells.filter((c) => c.status === 'unsupported').map((c) => c.id));
  const phase = (name: string) =>
    sum(records.map((rec) => (rec.outcome.kind === 'result' ? (rec.outcome.result.phases_s[name] ?? 0) : 0)));
  const count = (s: string) => results.cells.filter((c) => c.status === s).length;
  fs.rmSync(out, { recursive: true, force: true });
  return {
    start,
    round,
    wall_s: wall,
    processes: records.length,
    cpu_s: cpu,
    load: [load0, load1],
    cells: { ok: count('ok'), error: count('error'), unsupported: count('unsupported') },
    timed_s: phase('timed'),
    warmup_timed_s: phase('timed') + phase('warmup'),
    unsupported_processes: records.filter((rec) => unsupported.has(rec.cell)).length,
    recorded_start: results.run?.start,
    per_process_starts: [...new Set(records.map((rec) => rec.start))],
    verdicts: Object.fromEntries(results.cells.map((c) => [c.id, `${c.status}${c.exact ? `/${c.exact}` : ''}`])),
    detail: records.map((rec) => ({
      cell: rec.cell,
      library: rec.outcome.kind === 'result' ? (rec.outcome.result.versions.library?.name ?? null) : null,
      wall_s: rec.wall_s,
      phases_s: rec.outcome.kind === 'result' ? rec.outcome.result.phases_s : {},
    })),
  };
}

/**
 * CPU seconds of this process's reaped descendants (Linux /proc/self/stat cutime + cstime, in USER_HZ = 100
 * ticks): every cell process is reaped by its parent (Node, or the fork server) up to the CLI, so a run's
 * delta counts the whole tree; unlike wall time it does not grow while other work holds the cores.
 */
function childrenCpuS(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); cutime and cstime are fields 16 and 17.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
