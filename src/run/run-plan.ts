// The run plan: what a run, an export or a Slurm submission will execute, with which request, in which
// files. Pure apart from `timestamp`; `run`, `export`, `ingest` and Slurm all start from here, so the
// selection (flags -> run settings -> --only / changed cells -> jobs -> schedule) exists once.
import path from 'node:path';
import { onlyFilter } from '../plan/only.ts';
import type { Cell, Plan } from '../plan/expand.ts';
import type { Manifest } from '../spec/manifests.ts';
import { HARNESS_DIR } from '../repository.ts';
import type { Spec } from '../spec/types.ts';
import { runSettings, type RunSettings, type SettingFlags } from '../settings/settings.ts';
import { aaCells, buildJobs, type Job } from './jobs.ts';
import { schedule } from './schedule.ts';

/** Which cells a run measures: globs (`--only`), or exact cell ids (`--changed-since`), or all. */
export interface Selection {
  only: string | null;
  /** Exact ids; null: no id list. Both given: a cell must pass both. */
  cells: string[] | null;
}

/** Everything a run plan is made from: the spec, and the flags of its run (src/settings/settings.ts). */
export interface RunPlanInput {
  spec: Spec;
  plan: Plan;
  manifests: Record<string, Manifest | Error>;
  flags: SettingFlags;
  /** The schedule's seed when the flags give none. */
  seed: () => number;
  selection: Selection;
}

/** What will run: the run settings (flags applied), the selected cells, and the jobs in start order. */
export interface RunPlan extends Omit<RunPlanInput, 'flags' | 'seed'>, RunSettings {
  selected: Set<string>;
  /** Every process of the run, in the order the schedule starts them. */
  jobs: Job[];
  /** Cells with at least one process. */
  cells: number;
}

/** The ids of the selected cells (an --only glob that matches nothing is a UserError). */
export function selectCells(plan: Plan, s: Selection): Set<string> {
  const ids = plan.cells.map((c) => c.id);
  const byGlob = onlyFilter(s.only ?? undefined, ids);
  const byId = s.cells ? new Set(s.cells) : null;
  return new Set(ids.filter((id) => byGlob(id) && (byId === null || byId.has(id))));
}

/** Resolves a run plan. */
export function runPlan({ flags, seed, ...x }: RunPlanInput): RunPlan {
  const settings = runSettings(x.spec, flags, seed);
  const selected = selectCells(x.plan, x.selection);
  const jobs = schedule(
    buildJobs(x.plan, settings.protocol, selected, aaCells(x.spec, x.plan, selected)),
    settings.schedule,
  );
  return { ...x, ...settings, selected, jobs, cells: new Set(jobs.map((j) => j.cell.id)).size };
}

/**
 * File-system-safe name of a cell id, one to one: ids are made of letters, digits, '_', '.' and '-', so
 * '/' becomes '+', which no id holds. ('__' would collide: ids may contain '__'.)
 */
export function cellSlug(id: string): string {
  return id.replace(/\//g, '+');
}

/** A job's files, relative to a run directory (`processes/...`) or a bundle (`requests/`, `results/`, `logs/`). */
export interface ProcessFiles {
  request: string;
  result: string;
  stdout: string;
  stderr: string;
}

/** Where a job's request, result and logs live inside a run directory; `scratch` is its TMPDIR. */
export function runFiles(dir: string, job: Job): ProcessFiles & { scratch: string } {
  const base = path.join(dir, 'processes', cellSlug(job.cell.id), `${job.kind}-${job.index}`);
  return {
    request: `${base}.request.json`,
    result: `${base}.result.json`,
    stdout: `${base}.stdout.log`,
    stderr: `${base}.stderr.log`,
    scratch: `${base}.tmp`,
  };
}

/** Where a job's files live inside a bundle (relative, with `/`: the Python driver reads them). */
export function bundleFiles(job: Job): ProcessFiles {
  const base = `${cellSlug(job.cell.id)}/${job.kind}-${job.index}`;
  return {
    request: `requests/${base}.json`,
    result: `results/${base}.json`,
    stdout: `logs/${base}.stdout.log`,
    stderr: `logs/${base}.stderr.log`,
  };
}

/**
 * The runner directories a cell's process imports from: the tool's runner, the reference's runner
 * (whose adapter computes the expected result) and the baseline's (pairing), by runner name, without repeats.
 */
export function runnersOf(spec: Spec, cell: Cell): string[] {
  const names = [cell.runner];
  if (cell.reference) names.push(spec.tools[cell.reference].runner);
  if (cell.pairing?.baseline) names.push(spec.tools[cell.pairing.baseline].runner);
  return [...new Set(names)];
}

/** PYTHONPATH of a cell process on this machine: the harness, then the runners. */
export function pythonPathOf(spec: Spec, cell: Cell): string[] {
  return [...new Set([HARNESS_DIR, ...runnersOf(spec, cell).map((r) => spec.runners[r])])];
}

/** PYTHONPATH of a cell process inside a bundle, relative to the bundle. */
export function bundlePythonPath(spec: Spec, cell: Cell): string[] {
  return ['harness', ...runnersOf(spec, cell).map((r) => `runners/${r}`)];
}

/** A UTC time stamp for directory names (`2026-11-30T16-13-43`). */
export function timestamp(now = new Date()): string {
  return now.toISOString().replace(/[:]/g, '-').replace(/\..+$/, '');
}
