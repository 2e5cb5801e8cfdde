// A results argument may be a run directory: `report DIR`, `compare DIR1 DIR2` read DIR/results.json.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { linkOutside } from '../util/files.ts';

/** The results file an argument names: itself, or `results.json` inside a run directory. */
export function resultsPath(arg: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(arg);
  } catch {
    return arg; // the loader reports the missing file with its own message
  }
  if (!stat.isDirectory()) return arg;
  const file = path.join(arg, 'results.json');
  // A run directory from elsewhere may hold a link to any file: only one that stays inside is read.
  const why = linkOutside(arg, file);
  if (why) throw new UserError(`${file} ${why}; refusing to read it. Give the results file itself if you mean it.`);
  if (fs.existsSync(file)) return file;
  const partial = fs.existsSync(path.join(arg, 'journal.jsonl'));
  throw new UserError(
    `${arg}: a directory without results.json${partial ? ` (it has a journal: finish the run with \`benchgrid run --resume ${arg}\`)` : ''}. Give a run directory written by \`benchgrid run\`, or a results file.`,
  );
}
