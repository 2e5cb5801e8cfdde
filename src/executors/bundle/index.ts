// The bundle executor: `benchgrid export` writes bundles, their drivers run them by hand wherever
// they are carried (python driver.py), and `benchgrid ingest` merges what the drivers journaled.
import fs from 'node:fs';
import path from 'node:path';
import { timestamp } from '../../run/run-plan.ts';
import { readJsonFile } from '../../util/json-file.ts';
import type { Executor, ExecutorIngestOptions } from '../executor.ts';
import { ingestBundles } from './ingest.ts';
import { MAX_MANIFEST_BYTES } from './parse.ts';

export const bundle: Executor = {
  name: 'bundle',
  execute: null,
  submit: null,
  recognises: (dirs) => dirs.every((d) => fs.existsSync(path.join(d, 'bundle.json'))),
  ingest: async (dirs, opts) => ingestRun(dirs, opts),
};

/** Merges shards into one results file and says how they went. */
function ingestRun(dirs: string[], opts: ExecutorIngestOptions): void {
  const specName = readSpecName(dirs[0]);
  const out = path.resolve(opts.out ?? path.join('results', specName, timestamp()));
  const { results, file, missing } = ingestBundles(dirs, { out, allowMissing: opts.partial });
  const count = (s: string) => results.cells.filter((c) => c.status === s).length;
  const rel = path.relative(process.cwd(), file) || file;
  process.stderr.write(
    `benchgrid: ${dirs.length} bundle(s), ${results.cells.length} cells: ${count('ok')} ok, ${count('error')} error, ${count('unsupported')} unsupported${missing.length ? ` (partial: ${missing.length} process(es) missing)` : ''}. Results: ${rel}\n`,
  );
  if (opts.json)
    process.stdout.write(
      JSON.stringify({
        results: file,
        partial: results.partial,
        ok: count('ok'),
        error: count('error'),
        unsupported: count('unsupported'),
        missing,
      }) + '\n',
    );
}

function readSpecName(dir: string): string {
  try {
    return String(
      (
        readJsonFile(path.join(dir, 'bundle.json'), MAX_MANIFEST_BYTES, 'bundle manifest') as {
          spec: { name: unknown };
        }
      ).spec.name,
    );
  } catch {
    return 'ingested';
  }
}
