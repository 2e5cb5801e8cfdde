// Finding runs for `benchgrid history`: a results directory is a run (it holds results.json), a spec's
// directory of runs (results/<spec>/), or a tree of those (results/). The tree came from elsewhere as
// likely as not: every file is parsed and contained, a symbolic link that leaves the tree given (or
// leads nowhere) is skipped with a warning, and one run that does not load is a warning, not the end.
import fs from 'node:fs';
import path from 'node:path';
import { readBundleSpecData } from '../executors/bundle/parse.ts';
import { UserError } from '../errors.ts';
import { loadResults } from '../results/load.ts';
import type { Results } from '../results/model.ts';
import { normalise } from '../spec/normalise.ts';
import type { Spec } from '../spec/types.ts';
import { linkOutside } from '../util/files.ts';

/** One run found on disk. */
export interface RunFound {
  /** Absolute run directory. */
  dir: string;
  results: Results;
  /** When it started (ISO), else the day it was measured. */
  date: string;
  /**
   * The run's spec, from the spec.json `run` keeps beside its results (labels and page of its report),
   * with only the built-in runners; null when there is none or it does not load.
   */
  spec: Spec | null;
}

const LATEST = 'latest';

/** Runs under the given directories, oldest first; duplicates (a `latest` link, a path given twice) once. */
export function findRuns(dirs: string[]): { runs: RunFound[]; warnings: string[] } {
  const warnings: string[] = [];
  const seen = new Set<string>();
  const runs: RunFound[] = [];
  const visit = (root: string, dir: string, depth: number) => {
    const real = fs.realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const file = path.join(dir, 'results.json');
    if (fs.existsSync(file) || isLink(file)) {
      const run = loadRun(root, dir, real, warnings);
      if (run) runs.push(run);
      return;
    }
    if (depth >= 2) return;
    for (const name of fs.readdirSync(dir).sort()) {
      if (name === LATEST) continue; // the pointer names a run that is listed under its own name
      const sub = path.join(dir, name);
      const why = linkOutside(root, sub);
      if (why) warnings.push(`${sub}: it ${why}`);
      else if (isDirectory(sub)) visit(root, sub, depth + 1);
    }
  };
  for (const d of dirs) {
    if (!isDirectory(d))
      throw new UserError(`${d}: no such results directory. Give a run directory or results/<spec>/.`);
    visit(path.resolve(d), path.resolve(d), 0);
  }
  runs.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.dir < b.dir ? -1 : 1));
  return { runs, warnings };
}

/** One run directory's results and spec; null (with a warning) when its results.json is not to be read. */
function loadRun(root: string, dir: string, real: string, warnings: string[]): RunFound | null {
  const file = path.join(dir, 'results.json');
  const why = linkOutside(root, file);
  if (why) {
    warnings.push(`${file}: it ${why}`);
    return null;
  }
  try {
    const results = loadResults(file);
    const started = typeof results.run?.started === 'string' ? results.run.started : null;
    return { dir: real, results, date: started ?? results.measured_on, spec: runSpec(root, dir, warnings) };
  } catch (error) {
    warnings.push(error instanceof UserError ? error.message : `${file}: ${(error as Error).message}`);
    return null;
  }
}

/** The spec a run kept (spec.json), read as data, with the built-in runners only: a report reads their manifests. */
function runSpec(root: string, dir: string, warnings: string[]): Spec | null {
  const file = path.join(dir, 'spec.json');
  if (!fs.existsSync(file) && !isLink(file)) return null;
  const why = linkOutside(root, file);
  if (why) {
    warnings.push(`${file}: it ${why}; the run's report is drawn without its spec`);
    return null;
  }
  try {
    // Its own runner directories are dropped: the built-in ones are the only manifests read.
    return normalise({ ...readBundleSpecData(file), runners: {} }, file, [file], new Map());
  } catch (error) {
    warnings.push(
      `${error instanceof UserError ? error.message : (error as Error).message}; the run's report is drawn without its spec`,
    );
    return null;
  }
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
