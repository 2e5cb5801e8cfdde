// What an export cuts bundles from: a valid spec and its run plan (selection, timing settings, schedule).
import { loadValidSpec } from '../validate/valid.ts';
import type { Overrides } from '../run/jobs.ts';
import { runPlan, type RunPlan } from '../run/run-plan.ts';
import type { ScheduleKind } from '../run/schedule.ts';

/** Selection options shared by `export` and `run --executor slurm`. */
export interface SelectOptions {
  only?: string;
  device?: 'cpu' | 'cuda';
  processes?: number;
  samples?: number;
  schedule?: ScheduleKind;
  seed?: number;
}

/** Loads the spec (a UserError when invalid) and resolves its run plan; the shard is filled in per bundle. */
export async function exportSelection(specFile: string, o: SelectOptions): Promise<RunPlan & { created: string; processes: number }> {
  const { spec, plan, manifests } = await loadValidSpec(specFile, { quietWarnings: true });
  const overrides: Overrides = {};
  if (o.processes !== undefined) overrides.processes = o.processes;
  if (o.samples !== undefined) overrides.samples = o.samples;
  if (o.device !== undefined) overrides.device = o.device;
  const rp = runPlan({
    spec, plan, manifests, overrides, device: o.device ?? spec.device,
    selection: { only: o.only ?? null, cells: null },
    schedule: { kind: o.schedule ?? spec.protocol.schedule, seed: o.seed ?? exportSeed(spec.digest) },
  });
  return { ...rp, created: new Date().toISOString(), processes: rp.jobs.length };
}

/**
 * The default seed of an export: taken from the spec's digest, so that shards exported one by one
 * (`export --shard 1/2`, then `--shard 2/2`) share one schedule. `--seed` chooses another.
 */
export function exportSeed(digest: string): number {
  return Number.parseInt(digest.slice(0, 8), 16) >>> 0;
}
