// `benchgrid ingest DIR...`: bundles run by their drivers (or a Slurm submission) -> results.json and reports.
import { executorOf } from '../executors/registry.ts';

/** Options of `ingest`. */
export interface IngestCommandOptions {
  out?: string;
  partial?: boolean;
  json?: boolean;
}

/** Merges shards into one results file; the executor that made the directories (a Slurm submission: followed to its end first) ingests them. */
export async function ingest(dirs: string[], opts: IngestCommandOptions): Promise<void> {
  return (await executorOf(dirs)).ingest(dirs, opts);
}
