// Where a run's processes run. Every executor takes a planned spec to records: plan -> processes ->
// submit and follow -> records. The local one runs the processes here for the run command, which
// plans, journals and aggregates around it (lock, resume, results); the others plan their processes
// into bundles, submit them elsewhere, follow them and ingest the records their drivers wrote.
import type { Job } from '../run/jobs.ts';
import type { RunPlan } from '../run/run-plan.ts';
import type { SettingFlags } from '../settings/settings.ts';
import type { LocalOptions } from './local/local.ts';

/** The options of `run` that reach every executor: the run settings' flags and the command's own. */
export interface ExecutorRunOptions extends SettingFlags {
  out?: string;
  json?: boolean;
  resume?: string;
  only?: string;
  /** The interpreter every cell runs with (--python), instead of the spec's environments. */
  python?: string;
  jobs?: number;
  changedSince?: string;
  start?: 'cold' | 'fork';
  /** `--tool-source TOOL=SOURCE`, repeatable. */
  toolSource?: string[];
  /** Once finished, compare the run with the spec's previous complete run (src/compare/previous.ts). */
  compareLast?: boolean;
}

/** The options of `ingest` that reach an executor. */
export interface ExecutorIngestOptions {
  out?: string;
  partial?: boolean;
  json?: boolean;
}

/**
 * An executor, named in `run --executor NAME` and found again by `ingest` in what it left. `Flags` are its
 * own options of `run` (Slurm's --partition...), typed beside it and listed in registry.ts's ExecutorFlags.
 */
export interface Executor<Flags extends object = object> {
  readonly name: string;
  /**
   * Runs jobs the run command planned here, journaling each as it finishes (the run command's plan,
   * journal and results around it); true when a signal stopped it. Null: this executor submits.
   */
  execute: ((rp: RunPlan, jobs: Job[], o: LocalOptions) => Promise<boolean>) | null;
  /**
   * Plans a spec's processes, submits them and (unless told not to wait) follows them to their records.
   * Null: nothing to submit from `run` (the local executor runs them here; bundles are exported and run by hand).
   */
  submit: ((spec: string | undefined, opts: ExecutorRunOptions & Flags) => Promise<void>) | null;
  /** Whether `ingest DIRS` is this executor's to finish: the directories hold what it submitted. */
  recognises(dirs: string[]): boolean;
  /** Follows what the directories hold to its end and ingests its records into results.json and reports. */
  ingest(dirs: string[], opts: ExecutorIngestOptions): Promise<void>;
}
