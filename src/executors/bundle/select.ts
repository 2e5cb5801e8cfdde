// What an export cuts bundles from: a valid spec and its run plan (selection, run settings, schedule).
import { loadValidSpec } from '../../validate/valid.ts';
import { runPlan, type RunPlan } from '../../run/run-plan.ts';
import type { SettingFlags } from '../../settings/settings.ts';

/** Selection options shared by `export` and `run --executor slurm`: --only and the run settings' flags. */
export interface SelectOptions extends SettingFlags {
  only?: string;
}

/** Loads the spec (a UserError when invalid) and resolves its run plan; the shard is filled in per bundle. */
export async function exportSelection(
  specFile: string,
  o: SelectOptions,
): Promise<RunPlan & { created: string; processes: number }> {
  const { spec, plan, manifests } = await loadValidSpec(specFile, { quietWarnings: true });
  const rp = runPlan({
    spec,
    plan,
    manifests,
    flags: o,
    seed: () => exportSeed(spec.digest),
    selection: { only: o.only ?? null, cells: null },
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
