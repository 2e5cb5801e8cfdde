// Where a campaign leaves what it measured: its figures in bench/results/KIND-DATE.json, and its section of
// docs/performance.md rendered again from them, naming that file as its source.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../src/repository.ts';

/**
 * Writes `figures` to bench/results/`kind`-`date`.json, then replaces docs/performance.md by what `splice`
 * makes of it, given that file's path from the repository root; returns the file's path.
 */
export function publishFigures(
  kind: string,
  date: string,
  figures: unknown,
  splice: (doc: string, source: string) => string,
): string {
  const file = path.join(REPO_ROOT, 'bench/results', `${kind}-${date}.json`);
  fs.writeFileSync(file, JSON.stringify(figures, null, 2) + '\n');
  const doc = path.join(REPO_ROOT, 'docs/performance.md');
  fs.writeFileSync(doc, splice(fs.readFileSync(doc, 'utf8'), path.relative(REPO_ROOT, file)));
  return file;
}
