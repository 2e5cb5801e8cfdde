// Reading a spec's results folder for `compare --last` and `run --compare-last` (the edge of
// src/compare/last.ts). The folder may have come from elsewhere: a symbolic link in it is not followed
// (results/<spec>/latest names a run listed under its own name), a results.json that is a link out of the
// folder is not read, and every file goes through the bounded reader of any results file. A run that does
// not load is a warning, not the end: the others may still be compared.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { loadResults } from '../results/load.ts';
import { readJournal } from '../records/journal.ts';
import { lexists, linkOutside } from '../util/files.ts';
import { entryOfJournal, entryOfResults, type RunEntry } from './last.ts';

/** The folder `run` writes a spec's runs into by default: results/<spec>/ under the current directory. */
export function specRunsFolder(spec: string): string {
  return path.join('results', spec);
}

/** The run directories of the folders (each read once), with a warning per one passed over. */
export function findRunEntries(folders: string[]): { entries: RunEntry[]; warnings: string[] } {
  const entries: RunEntry[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const folder of folders) {
    if (seen.has(path.resolve(folder))) continue;
    seen.add(path.resolve(folder));
    // results/<spec> itself must stay inside results/: a planted link there would list any directory.
    const why = linkOutside(path.dirname(folder), folder);
    if (why) {
      warnings.push(`${folder} ${why}; not read (docs/security.md).`);
      continue;
    }
    for (const dir of runDirs(folder, warnings)) {
      if (seen.has(path.resolve(dir))) continue;
      seen.add(path.resolve(dir));
      const entry = readEntry(folder, dir, warnings);
      if (entry) entries.push(entry);
    }
  }
  return { entries, warnings };
}

/** The real directories directly in `folder`; links are not followed (the `latest` pointer in silence). */
function runDirs(folder: string, warnings: string[]): string[] {
  let listed: fs.Dirent[];
  try {
    listed = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return []; // no such folder: the caller says where it looked and found nothing
  }
  const dirs: string[] = [];
  for (const e of listed.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(folder, e.name);
    if (e.isSymbolicLink()) {
      if (e.name !== 'latest') warnings.push(`${p} is a symbolic link; not followed.`);
    } else if (e.isDirectory()) dirs.push(p);
  }
  return dirs;
}

/** One run directory's entry: from results.json, else from the journal's header; null when it is neither. */
function readEntry(folder: string, dir: string, warnings: string[]): RunEntry | null {
  const file = path.join(dir, 'results.json');
  try {
    if (lexists(file)) {
      const why = linkOutside(folder, file);
      if (why) {
        warnings.push(`${file} ${why}; not read (docs/security.md).`);
        return null;
      }
      return entryOfResults(dir, loadResults(file));
    }
    if (!lexists(path.join(dir, 'journal.jsonl'))) return null; // not a run directory (a Slurm script folder, say)
    const { header } = readJournal(dir);
    return header ? entryOfJournal(dir, header) : null;
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    warnings.push(`${error.message} (passed over)`);
    return null;
  }
}
