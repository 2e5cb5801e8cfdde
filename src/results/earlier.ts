// The earlier runs a run learns its run-to-run component from (src/stats/between-run.ts): this spec's
// finished runs on this machine, under results/<spec>/ and beside the run's own directory, measured the
// same way. Reads files (the edge); every file is loaded as hostile as any other results file.
import fs from 'node:fs';
import path from 'node:path';
import type { Protocol } from '../spec/types.ts';
import { loadResults } from './load.ts';
import type { Results } from './model.ts';
import { pairedEstimate } from './published.ts';

/** The most earlier runs read, newest first: beyond them the machine has changed more than they tell. */
export const MAX_EARLIER_RUNS = 20;

/** What makes an earlier run comparable with this one. */
export interface ThisRun {
  spec: string;
  device: string;
  hostname: string;
  start: string;
  protocol: Pick<Protocol, 'warmups' | 'threads'>;
  /** The run's own directory: not an earlier run, and its siblings are candidates. */
  dir: string;
}

/** The directories that may hold earlier runs: results/<spec>/ here and the run directory's parent. */
function candidates(run: ThisRun): string[] {
  const own = path.resolve(run.dir);
  const parents = [...new Set([path.resolve('results', run.spec), path.dirname(own)])];
  const dirs = parents.flatMap((p) => {
    try {
      return fs
        .readdirSync(p, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => path.join(p, e.name));
    } catch {
      return [];
    }
  });
  const withResults = [...new Set(dirs.map((d) => safeReal(d)))].filter(
    (d): d is string => d !== null && d !== safeReal(own) && fs.existsSync(path.join(d, 'results.json')),
  );
  return withResults.sort((a, b) => mtime(b) - mtime(a)).slice(0, MAX_EARLIER_RUNS);
}

function safeReal(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function mtime(dir: string): number {
  try {
    return fs.statSync(path.join(dir, 'results.json')).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether an earlier results file was measured as this run is: same spec, machine, device, start, warm-ups, threads; not a bench-change run. */
function comparable(r: Results, run: ThisRun): boolean {
  if (r.origin !== 'benchgrid' || r.spec?.name !== run.spec || r.spec.device !== run.device) return false;
  if (r.host.hostname !== run.hostname || (r.run?.start ?? 'cold') !== run.start || r.run?.change) return false;
  const protocol = Object.values(r.subjects)[0]?.meta?.protocol ?? {};
  return protocol.warmups === run.protocol.warmups && protocol.threads === run.protocol.threads;
}

/** A cell of an earlier run: its paired estimate and the code it measured (aggregation keeps those of this run's code). */
export interface EarlierCell {
  mean: number;
  variance: number;
  tool_version: string | null;
  torch: string | null;
}

/** The earlier comparable runs' paired cells; files that do not load are passed over. */
export function earlierRuns(run: ThisRun): Map<string, EarlierCell>[] {
  const out: Map<string, EarlierCell>[] = [];
  for (const dir of candidates(run)) {
    let r: Results;
    try {
      r = loadResults(dir);
    } catch {
      continue; // not ours to judge here: `benchgrid report` says what is wrong with it
    }
    if (!comparable(r, run)) continue;
    const cells = new Map<string, EarlierCell>();
    for (const c of r.cells) {
      const e = c.paired ? pairedEstimate(c.paired) : null;
      if (e)
        cells.set(c.id, {
          mean: e.mean,
          variance: e.variance,
          tool_version: c.tool_version,
          torch: c.runtime?.torch ?? null,
        });
    }
    if (cells.size > 0) out.push(cells);
  }
  return out;
}
