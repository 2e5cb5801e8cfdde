// `compare --last SPEC` and `run --compare-last`: which of a spec's runs are "the last ones". Pure: the
// run directories come in already read (src/compare/last-find.ts lists them), so the choice is tested
// with runs made in memory.
import path from 'node:path';
import type { Results } from '../results/model.ts';

/** What a run directory holds, as far as choosing the last runs goes. */
export type RunState =
  /** results.json of a finished run. */
  | 'complete'
  /** results.json marked partial: the run was interrupted (or ingested with --partial). */
  | 'partial'
  /** a journal and no results.json: killed, crashed, or still running. */
  | 'unfinished';

/** One run directory of a spec's results folder. */
export interface RunEntry {
  /** The run directory, as it was found (relative to the current directory when found there). */
  dir: string;
  /** The spec's name as the run recorded it; null when it recorded none (a seed-layout file). */
  spec: string | null;
  /** The spec's digest as recorded; null when absent. */
  digest: string | null;
  state: RunState;
  /** When the run started and finished, in ms since the epoch, from what it recorded; null when it did not. */
  started: number | null;
  finished: number | null;
  /** A bench-change run (two versions of a tool in one run): not a run of the spec to compare with. */
  change: boolean;
  /** The loaded results; null for an unfinished run. */
  results: Results | null;
}

/** The run directory's entry from its loaded results.json. */
export function entryOfResults(dir: string, r: Results): RunEntry {
  const run = r.run ?? {};
  const day = Date.parse(r.measured_on);
  const started = timeOf(run.started) ?? (Number.isNaN(day) ? null : day);
  return {
    dir,
    spec: r.spec?.name ?? null,
    digest: r.spec?.digest ?? null,
    state: r.partial ? 'partial' : 'complete',
    started,
    finished: timeOf(run.finished),
    change: run.change !== undefined && run.change !== null,
    results: r,
  };
}

/** The entry of a run directory with a journal and no results.json, from the journal's header. */
export function entryOfJournal(
  dir: string,
  header: { spec: { name: string; digest: string }; started: string; change?: unknown },
): RunEntry {
  return {
    dir,
    spec: header.spec.name,
    digest: header.spec.digest,
    state: 'unfinished',
    started: timeOf(header.started),
    finished: null,
    change: header.change !== undefined,
    results: null,
  };
}

function timeOf(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

/**
 * When a run counts as made: when it finished (a resumed run counts when it completed, as the `latest`
 * link does), else when it started. Never the file's mtime: a copied or restored tree keeps none of it.
 */
function madeAt(e: RunEntry): number {
  return e.finished ?? e.started ?? -Infinity;
}

/** Newest first: by when each was made, then when it started, then by directory name (stable on ties). */
export function newestFirst(entries: RunEntry[]): RunEntry[] {
  return [...entries].sort(
    (a, b) =>
      madeAt(b) - madeAt(a) ||
      (b.started ?? -Infinity) - (a.started ?? -Infinity) ||
      (a.dir < b.dir ? 1 : a.dir > b.dir ? -1 : 0),
  );
}

/** The choice: the last complete runs of the spec, newest first, and what was passed over on the way. */
export interface LastRuns {
  /** At most `count` complete runs, newest first. */
  runs: RunEntry[];
  /** Incomplete runs of the spec newer than the oldest run chosen (or any, when too few were found): the user's latest run may be one. */
  skipped: RunEntry[];
  /** Runs in the folder that recorded another spec (or none), or are bench-change runs: never compared. */
  others: number;
}

/**
 * The `count` newest complete runs of the spec named `spec`, matched by the name each run recorded
 * (a directory name proves nothing: a run may have been copied or moved there). `exclude` is a run
 * directory that is not a candidate (`run --compare-last`'s own), compared by resolved path.
 */
export function lastRuns(entries: RunEntry[], spec: string, count: number, exclude?: string): LastRuns {
  const excluded = exclude === undefined ? null : path.resolve(exclude);
  const candidates = entries.filter((e) => excluded === null || path.resolve(e.dir) !== excluded);
  const ours = newestFirst(candidates.filter((e) => e.spec === spec && !e.change));
  const runs = ours.filter((e) => e.state === 'complete').slice(0, count);
  const enough = runs.length === count;
  const skipped = ours.filter((e) => e.state !== 'complete' && (!enough || madeAt(e) > madeAt(runs[count - 1])));
  return { runs, skipped, others: candidates.length - ours.length };
}

/** One line about a run passed over, with how to finish it. */
export function skippedLine(e: RunEntry): string {
  const why =
    e.state === 'partial'
      ? 'interrupted (its results are partial)'
      : 'not finished (a journal and no results.json: killed, or still running)';
  return `skipped ${e.dir}: ${why}; finish it with \`benchgrid run --resume ${e.dir}\` to include it.`;
}

/** The message when fewer than two complete runs were found: how many, where it looked, and what to do. */
export function tooFewMessage(spec: string, found: LastRuns, looked: string): string {
  const n = found.runs.length;
  const passed = [
    found.skipped.length > 0 ? `${found.skipped.length} incomplete run(s) skipped` : '',
    found.others > 0 ? `${found.others} run(s) of other specs or bench-change runs ignored` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return `found ${n} complete run${n === 1 ? '' : 's'} of ${spec} in ${looked}${passed ? ` (${passed})` : ''}; two are needed. Run the spec ${n === 0 ? 'twice' : 'once more'} with \`benchgrid run\`, or compare two files: benchgrid compare BEFORE AFTER.`;
}

/** A note when the two runs measured different versions of the spec: cells in one only are listed as such. */
export function digestNote(before: RunEntry, after: RunEntry): string | null {
  if (before.digest === null || after.digest === null || before.digest === after.digest) return null;
  return `the spec changed between these runs (digest ${before.digest.slice(0, 12)} -> ${after.digest.slice(0, 12)}): cells added or removed show as in one file only.`;
}
