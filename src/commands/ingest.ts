// `benchgrid ingest DIR...`: bundles run by their drivers (or a Slurm submission) -> results.json and reports.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { ingestBundles } from '../executors/bundle/ingest.ts';
import { timestamp } from '../run/run-plan.ts';
import { MAX_MANIFEST_BYTES } from '../executors/bundle/parse.ts';
import { readJsonFile } from '../util/json-file.ts';

/** Options of `ingest`. */
export interface IngestCommandOptions {
  out?: string;
  partial?: boolean;
  json?: boolean;
}

/** Merges shards into one results file; a Slurm submission directory is followed to its end first. */
export async function ingest(dirs: string[], opts: IngestCommandOptions): Promise<void> {
  const submissions = dirs.filter((d) => fs.existsSync(path.join(d, 'slurm.json')));
  if (submissions.length > 0) {
    if (dirs.length > 1) throw new UserError(`${submissions[0]} is a Slurm submission; ingest it on its own (its shards are found inside it).`);
    return (await import('../executors/slurm/finish.ts')).finishSlurm(submissions[0], { out: opts.out, json: opts.json });
  }
  const specName = readSpecName(dirs[0]);
  const out = path.resolve(opts.out ?? path.join('results', specName, timestamp()));
  const { results, file, missing } = ingestBundles(dirs, { out, allowMissing: opts.partial });
  const count = (s: string) => results.cells.filter((c) => c.status === s).length;
  const rel = path.relative(process.cwd(), file) || file;
  process.stderr.write(`benchgrid: ${dirs.length} bundle(s), ${results.cells.length} cells: ${count('ok')} ok, ${count('error')} error, ${count('unsupported')} unsupported${missing.length ? ` (partial: ${missing.length} process(es) missing)` : ''}. Results: ${rel}\n`);
  if (opts.json) process.stdout.write(JSON.stringify({ results: file, partial: results.partial, ok: count('ok'), error: count('error'), unsupported: count('unsupported'), missing }) + '\n');
}

function readSpecName(dir: string): string {
  try {
    return String((readJsonFile(path.join(dir, 'bundle.json'), MAX_MANIFEST_BYTES, 'bundle manifest') as { spec: { name: unknown } }).spec.name);
  } catch {
    return 'ingested';
  }
}
