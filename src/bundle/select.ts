// What an export cuts bundles from: a valid spec, the selected cells, the protocol after overrides.
import { loadValidSpec } from '../spec/valid.ts';
import { onlyFilter } from '../plan/only.ts';
import { buildJobs, effectiveProtocol, type Overrides } from '../run/jobs.ts';
import type { ExportInput } from './export.ts';

/** Selection options shared by `export` and `run --executor slurm`. */
export interface SelectOptions {
  only?: string;
  device?: 'cpu' | 'cuda';
  processes?: number;
  samples?: number;
}

/** Loads the spec (a UserError when invalid) and resolves the selection; the shard is filled in per bundle. */
export async function exportSelection(specFile: string, o: SelectOptions): Promise<Omit<ExportInput, 'shard'> & { cells: number; processes: number }> {
  const { spec, plan, manifests } = await loadValidSpec(specFile, { quietWarnings: true });
  const overrides: Overrides = {};
  if (o.processes !== undefined) overrides.processes = o.processes;
  if (o.samples !== undefined) overrides.samples = o.samples;
  if (o.device !== undefined) overrides.device = o.device;
  const protocol = effectiveProtocol(spec, overrides);
  const filter = onlyFilter(o.only, plan.cells.map((c) => c.id));
  const selected = new Set(plan.cells.filter((c) => filter(c.id)).map((c) => c.id));
  const jobs = buildJobs(plan, protocol, selected);
  return {
    spec, plan, manifests, protocol, selected, overrides,
    device: o.device ?? spec.device,
    only: o.only ?? null,
    created: new Date().toISOString(),
    cells: new Set(jobs.map((j) => j.cell.id)).size,
    processes: jobs.length,
  };
}
