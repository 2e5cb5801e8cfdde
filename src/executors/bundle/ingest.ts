// Bundles (one or more shards of one export) -> one results file with reports. Every process is
// classified by outcomeOf from the driver's journal line and its result file, exactly as `run` does.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.ts';
import { aggregate } from '../../results/aggregate.ts';
import { localHost } from '../../results/host.ts';
import type { Results } from '../../results/model.ts';
import { writeResults } from '../../results/write.ts';
import type { ProcessRecord } from '../../records/journal.ts';
import { exitOf, outcomeOf } from '../../records/outcome.ts';
import { runPlan } from '../../run/run-plan.ts';
import { recordedFlags } from '../../settings/settings.ts';
import { writeRunReports } from '../../report/run-reports.ts';
import { coverage, environments, mergeProblems, type ReadBundle, type Sourced } from './checks.ts';
import { readDriverJournal, readManifestFile } from './manifest.ts';
import { loadBundleSpec } from './spec.ts';

/** Options of an ingest. */
export interface IngestOptions {
  out: string;
  /** Accept processes that never ran (a failed Slurm task): the results are marked partial. */
  allowMissing?: boolean;
  /** Recorded in the results' run section (`bundle` or `slurm`). */
  executor?: string;
}

/** What an ingest wrote. */
export interface Ingested {
  results: Results;
  file: string;
  missing: string[];
}

/** Reads bundles, refuses what cannot be merged (listing every problem), writes results.json and reports. */
export function ingestBundles(dirs: string[], opts: IngestOptions): Ingested {
  if (dirs.length === 0) throw new UserError('ingest needs at least one bundle directory.');
  const bundles = readBundles(dirs);
  const problems = mergeProblems(bundles);
  if (problems.length > 0) throw refusal(problems);

  const first = bundles[0];
  const { spec, plan, manifests } = loadBundleSpec(first.dir, first.manifest);
  // The settings the export recorded (bundles written before the interleaved schedule ran sequentially).
  const flags = recordedFlags(first.manifest.overrides, first.manifest.schedule);
  const rp = runPlan({
    spec,
    plan,
    manifests,
    flags,
    seed: () => 0,
    selection: { only: first.manifest.only, cells: null },
  });
  const schedule = rp.schedule;
  const { protocol, selected } = rp;
  const expected = rp.jobs.map((j) => j.key);
  const covered = coverage(bundles, expected);
  const hard = opts.allowMissing ? covered.problems : [...covered.problems, ...covered.gaps];

  const sourced = sourcedProcesses(bundles);
  const all = [...hard, ...environments(sourced)];
  if (all.length > 0) throw refusal(all);

  const records: ProcessRecord[] = sourced.map((s) => s.record);
  const starts = records.map((r) => r.started).sort();
  const drivers = bundles.flatMap((b) => b.drivers);
  const setups = drivers.map((d) => d.environment_setup).filter((x) => x !== undefined);
  const results = aggregate(
    {
      spec,
      plan,
      selected,
      protocol,
      device: first.manifest.device,
      partial: covered.missing.length > 0,
      measuredOn: (starts[0] ?? new Date().toISOString()).slice(0, 10),
      host: localHost(),
      run: {
        executor: opts.executor ?? 'bundle',
        start: 'cold',
        jobs: 1,
        overrides: first.manifest.overrides,
        only: first.manifest.only,
        schedule,
        started: starts[0] ?? null,
        finished: lastEnd(records),
        dir: path.resolve(opts.out),
        bundles: bundles.map((b) => ({
          dir: b.dir,
          shard: `${b.manifest.shard.index + 1}/${b.manifest.shard.count}`,
          hosts: [...new Set(b.drivers.map((d) => d.hostname))],
        })),
        missing_processes: covered.missing,
        // How each driver session built its environment from a wheelhouse, when one did (driver.py --setup-env).
        ...(setups.length > 0 ? { environment_setup: setups } : {}),
      },
    },
    records,
  );
  describeMachine(results, drivers);
  const file = path.join(path.resolve(opts.out), 'results.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeResults(file, results);
  writeRunReports(path.dirname(file), results, spec);
  return { results, file, missing: covered.missing };
}

function readBundles(dirs: string[]): ReadBundle[] {
  return dirs.map((d) => {
    const dir = path.resolve(d);
    const manifest = readManifestFile(dir);
    return { dir, manifest, ...readDriverJournal(dir), specDigest: loadBundleSpec(dir, manifest).digest };
  });
}

/** Every journaled process of a job its bundle's manifest lists, classified exactly as `run` classifies it. */
function sourcedProcesses(bundles: ReadBundle[]): Sourced[] {
  const sourced: Sourced[] = [];
  for (const b of bundles) {
    const jobs = new Map(b.manifest.jobs.map((j) => [j.key, j]));
    for (const p of b.processes) {
      const job = jobs.get(p.key);
      if (!job) continue;
      const outcome = outcomeOf(exitOf(p.exit), path.join(b.dir, job.result), {
        cell: job.cell,
        index: job.index,
        mode: job.kind === 'memory' ? 'memory' : 'time',
      });
      sourced.push({
        bundle: b,
        environment: job.environment,
        record: {
          type: 'process',
          key: p.key,
          cell: p.cell,
          kind: p.kind,
          index: p.index,
          started: p.started,
          wall_s: p.wall_s,
          cpus: p.cpus,
          start: 'cold',
          outcome,
        },
      });
    }
  }
  return sourced;
}

function refusal(problems: string[]): UserError {
  return new UserError(
    `cannot ingest these bundles:\n${problems.map((p) => (p.startsWith('  ') ? `  ${p}` : `  - ${p}`)).join('\n')}`,
  );
}

function lastEnd(records: ProcessRecord[]): string | null {
  const ends = records.map((r) => Date.parse(r.started) + r.wall_s * 1000).filter(Number.isFinite);
  return ends.length ? new Date(Math.max(...ends)).toISOString() : null;
}

/**
 * aggregate describes the machine it runs on; an ingest describes the machines the drivers ran on
 * (from their journal records), which checks.environments has shown to be of one kind.
 */
function describeMachine(results: Results, drivers: ReturnType<typeof readDriverJournal>['drivers']): void {
  const d = drivers.at(-1);
  if (!d) return;
  const hosts = [...new Set(drivers.map((x) => x.hostname))];
  const gpu = (results.host.gpu as string | null) ?? null;
  const threads = results.host.torch_threads as number;
  results.host = {
    ...results.host,
    name: `a ${d.cpu_count ?? '?'}-core ${d.cpu_model ?? 'unknown CPU'} machine${gpu ? ` with an ${gpu}` : ''}${hosts.length > 1 ? ` (${hosts.length} nodes)` : ''}, ${threads} torch thread${threads === 1 ? '' : 's'} per process`,
    cpus: d.cpu_count,
    cpu_model: d.cpu_model,
    hostname: hosts.join(', '),
    platform: d.platform,
  };
  for (const s of Object.values(results.subjects)) {
    if (s.meta) s.meta.environment = { ...s.meta.environment, load_average_1m: d.load_average_1m };
  }
}
