// The cost lines of `benchgrid plan`: the processes a run starts, the environments it builds first and
// what they download, and how long it will take (from the spec's last run here).
import fs from 'node:fs';
import path from 'node:path';
import { describeDuration, planCost, type LastRun, type PlanCost } from '../run/cost.ts';
import type { Plan } from '../plan/expand.ts';
import { cachedDownloadSize, describeSize, downloadSize, type DownloadSize } from '../env/size.ts';
import { listEnvs } from '../env/list.ts';
import { baselineDonors } from '../run/jobs.ts';
import { readJournal } from '../records/journal.ts';
import { runPlan } from '../run/run-plan.ts';
import type { Manifest } from '../spec/manifests.ts';
import type { SettingFlags } from '../settings/settings.ts';
import type { Spec } from '../spec/types.ts';
import { wrap } from '../util/width.ts';
import { readJsonFile } from '../util/json-file.ts';
import { MAX_RESULTS_BYTES } from '../results/load.ts';

/** An environment a run would build first. */
export interface ToBuild {
  environment: string;
  requirements: number;
  /** A layer over another environment (one release of a versioned tool): small, not sized. */
  layer_over: string | null;
  download: DownloadSize | null;
}

/** The last finished run of the spec under results/<name>/latest, as the estimate needs it; null when there is none. */
function lastRun(spec: Spec, cwd = process.cwd()): LastRun | null {
  const dir = path.join(cwd, 'results', spec.name, 'latest');
  try {
    const results = readJsonFile(path.join(dir, 'results.json'), MAX_RESULTS_BYTES, 'results file') as {
      spec?: { digest?: string };
      run?: { started?: string; finished?: string; jobs?: number };
    };
    const run = results.run ?? {};
    if (typeof run.started !== 'string' || typeof run.finished !== 'string') return null;
    return {
      dir: path.relative(cwd, fs.realpathSync(dir)) || dir,
      started: run.started,
      finished: run.finished,
      concurrency: Number(run.jobs) || 1,
      records: readJournal(dir).records,
    };
  } catch {
    return null;
  }
}

/**
 * Everything `plan` says about the cost of running the selection with the timing flags a run would be
 * given (`--processes 1 --memory-runs 0`); `sizes: true` asks pip (the only process plan may start), else the cache is read.
 */
export async function costOf(
  spec: Spec,
  plan: Plan,
  manifests: Record<string, Manifest | Error>,
  x: { only?: string; flags: SettingFlags; sizes: boolean },
  log: (s: string) => void,
): Promise<{ cost: PlanCost; build: ToBuild[]; fewest: number | null }> {
  const rp = runPlan({
    spec,
    plan,
    manifests,
    flags: x.flags,
    seed: () => 0,
    selection: { only: x.only ?? null, cells: null },
  });
  const cost = planCost(rp.jobs, lastRun(spec), new Set(baselineDonors(plan, rp.selected).keys()));
  const used = new Set(rp.jobs.map((j) => j.cell.environment));
  const envs = Object.values(spec.environments).filter((e) => used.has(e.id));
  const build: ToBuild[] = [];
  for (const { env } of listEnvs(envs).filter((e) => e.builds.length === 0)) {
    // Only an explicit --sizes starts pip; otherwise what an earlier --sizes learnt, read from the cache.
    const download = env.layer
      ? null
      : x.sizes
        ? await downloadSize(env, path.dirname(spec.file), log)
        : cachedDownloadSize(env);
    build.push({
      environment: env.id,
      requirements: env.requirements.length,
      layer_over: env.layer?.base ?? null,
      download,
    });
  }
  // With a precision target the plan holds every process a cell may run; the fewest is what it always runs.
  const min = rp.protocol.min_processes;
  const fewest =
    rp.protocol.precision === null ? null : rp.jobs.filter((j) => !(j.kind === 'time' && j.index >= min)).length;
  return { cost, build, fewest };
}

/** The cost as text lines no wider than `width`. */
export function renderCost(c: { cost: PlanCost; build: ToBuild[]; fewest?: number | null }, width: number): string[] {
  const { processes: p, cells, paired_baselines: paired, estimate } = c.cost;
  const kinds = [
    `${p.time} timing`,
    p.memory && `${p.memory} memory`,
    p.aa && `${p.aa} A/A`,
    p.control && `${p.control} control`,
  ]
    .filter(Boolean)
    .join(', ');
  const baselines =
    paired === 0
      ? ''
      : paired === 1
        ? "; 1 raw cell is timed inside its row's paired processes and starts no timing process of its own"
        : `; ${paired} raw cells are timed inside their row's paired processes and start no timing process of their own`;
  const lines = [
    `A run starts ${c.fewest !== undefined && c.fewest !== null ? 'up to ' : ''}${p.total} process${p.total === 1 ? '' : 'es'} for ${cells} cell${cells === 1 ? '' : 's'} (${kinds})${baselines}.`,
  ];
  if (c.fewest !== undefined && c.fewest !== null)
    lines.push(
      `With the precision target (protocol.precision), a cell stops adding processes once its published interval is within it: at least ${c.fewest} processes in all.`,
    );
  for (const b of c.build) {
    const what = b.layer_over
      ? `a layer over ${b.layer_over} (the release and what ${b.layer_over} lacks, downloaded by pip: about a minute, tens of MiB)`
      : `${b.requirements} requirement${b.requirements === 1 ? '' : 's'}, ${b.download ? describeSize(b.download) : 'download size not asked (plan --sizes asks pip)'}`;
    lines.push(`Environment ${b.environment} is built first (once; cached for later runs): ${what}.`);
  }
  lines.push(
    estimate
      ? `Wall time: ${describeDuration(estimate.seconds)}, from the last run of this spec here (${estimate.from}, started ${estimate.started}; ${estimate.matched} of ${p.total} processes timed there, the others at their kind's mean).`
      : 'Wall time: no earlier run of this spec under results/ to estimate it from; the progress line of a run gives an ETA after its first processes.',
  );
  return lines.flatMap((l) => wrap(l, width));
}
