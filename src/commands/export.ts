// `benchgrid export SPEC --out DIR`: a bundle that runs without Node (`python DIR/driver.py`).
import path from 'node:path';
import { UserError } from '../errors.ts';
import { planBundle, writeBundle } from '../executors/bundle/export.ts';
import { parseShard } from '../executors/bundle/manifest.ts';
import { exportSelection, type SelectOptions } from '../executors/bundle/select.ts';

/** Options of `export`: the selection and the run settings' flags (SelectOptions), and where to write. */
export interface ExportOptions extends SelectOptions {
  out: string;
  shard?: string;
  json?: boolean;
}

/** Writes one bundle (all of the spec's processes, or shard I of N). */
export async function exportCommand(specFile: string, opts: ExportOptions): Promise<void> {
  const shard = opts.shard ? parseShard(opts.shard) : { index: 0, count: 1 };
  const input = await exportSelection(specFile, opts);
  const planned = planBundle({ ...input, shard });
  const n = planned.manifest.jobs.length;
  if (n === 0) {
    throw new UserError(
      input.processes === 0
        ? `${specFile}: no planned cell is selected, so there is nothing to export.`
        : `shard ${shard.index + 1}/${shard.count} has no cell (${input.cells} cell(s) to share out); use fewer shards.`,
    );
  }
  const dir = path.resolve(opts.out);
  writeBundle(dir, planned, input.spec);
  const rel = path.relative(process.cwd(), dir) || dir;
  const cells = new Set(planned.manifest.jobs.map((j) => j.cell)).size;
  process.stderr.write(
    `benchgrid: ${input.spec.name}: ${cells} cells, ${n} processes (shard ${shard.index + 1}/${shard.count}) exported to ${rel}\n` +
      `benchgrid: run it where there is Python with torch: python3 ${rel}/driver.py --python /path/to/python; then: benchgrid ingest ${rel}\n`,
  );
  if (opts.json)
    process.stdout.write(
      JSON.stringify({
        dir,
        spec: input.spec.name,
        digest: input.spec.digest,
        shard: planned.manifest.shard,
        cells,
        processes: n,
      }) + '\n',
    );
}
