// Finding runs for `benchgrid history`: a results directory is a run (it holds results.json), a spec's
// directory of runs (results/<spec>/), or a tree of those (results/). Every file is parsed and contained:
// one that does not load is a warning, and the site is built from the rest.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { loadResults } from '../results/load.ts';
import type { Results } from '../results/model.ts';

/** One run found on disk. */
export interface RunFound {
  /** Absolute run directory. */
  dir: string;
  results: Results;
  /** When it started (ISO), else the day it was measured. */
  date: string;
  /** Its report.html, when the run wrote one. */
  report: string | null;
}

const LATEST = 'latest';

/** Runs under the given directories, oldest first; duplicates (a `latest` link, a path given twice) once. */
export function findRuns(dirs: string[]): { runs: RunFound[]; warnings: string[] } {
  const warnings: string[] = [];
  const seen = new Set<string>();
  const runs: RunFound[] = [];
  const visit = (dir: string, depth: number) => {
    const real = fs.realpathSync(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const file = path.join(dir, 'results.json');
    if (fs.existsSync(file)) {
      try {
        const results = loadResults(file);
        const started = typeof results.run?.started === 'string' ? results.run.started : null;
        const report = path.join(dir, 'report.html');
        runs.push({ dir: real, results, date: started ?? results.measured_on, report: fs.existsSync(report) ? report : null });
      } catch (error) {
        warnings.push(error instanceof UserError ? error.message : `${file}: ${(error as Error).message}`);
      }
      return;
    }
    if (depth >= 2) return;
    for (const name of fs.readdirSync(dir).sort()) {
      if (name === LATEST) continue; // the pointer names a run that is listed under its own name
      const sub = path.join(dir, name);
      if (fs.statSync(sub).isDirectory()) visit(sub, depth + 1);
    }
  };
  for (const d of dirs) {
    if (!fs.existsSync(d) || !fs.statSync(d).isDirectory()) throw new UserError(`${d}: no such results directory. Give a run directory or results/<spec>/.`);
    visit(path.resolve(d), 0);
  }
  runs.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.dir < b.dir ? -1 : 1));
  return { runs, warnings };
}
