// The append-only journal of a run: one JSON line per finished process, written as it finishes.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { appendLine, containedFile } from '../util/files.ts';
import { readRegularFile } from '../util/json-file.ts';
import { validatorFor, validatorForDef } from '../spec/schema.ts';
import type { Overrides } from '../settings/settings.ts';
import type { Outcome } from './outcome.ts';
import type { SourceRequest } from '../source/prepare.ts';

/** What a cell process measures, its purpose (spelt `kind` in the journal; src/run/jobs.ts makes them). */
export type ProcessPurpose = 'time' | 'memory' | 'aa' | 'control';

/** How processes are ordered: `sequential` keeps each cell's processes together (the old order). */
export type ScheduleKind = 'interleaved' | 'sequential';

/** The schedule of a run, recorded in the journal, bundles and results so the order can be rebuilt (src/run/schedule.ts). */
export interface Schedule {
  kind: ScheduleKind;
  /** Seed of the per-round shuffles (unused by `sequential`, recorded all the same). */
  seed: number;
}

/** First line of a journal: what the run is. */
export interface JournalHeader {
  type: 'header';
  v: 1;
  spec: { name: string; digest: string; file: string };
  device: 'cpu' | 'cuda';
  only: string | null;
  /** The exact cells selected (`--changed-since`); absent or null: every cell --only selects. */
  cells?: string[] | null;
  /** Absent in journals written before the interleaved schedule: those resume sequentially. */
  schedule?: Schedule;
  overrides: Overrides;
  python: string | null;
  start: 'cold' | 'fork';
  jobs: number;
  started: string;
  /** Tools built from source for this run (`--tool-source`, bench-change's sides); absent: none. */
  tool_sources?: SourceRequest[];
  /** A bench-change run: the tool it compares and the --only it was given. */
  change?: { tool: string; only: string | null };
}

/**
 * What every journal line about one finished process says, in a run's journal and in a bundle driver's
 * (src/executors/bundle/manifest.ts `DriverProcess`): the same job key, cell, kind and index as the plan's jobs, so
 * resume and ingest find the processes still to run the same way.
 */
export interface ProcessLine {
  type: 'process';
  key: string;
  cell: string;
  kind: ProcessPurpose;
  index: number;
  started: string;
  wall_s: number;
  cpus: number[] | null;
  start: 'cold' | 'fork';
}

/** One finished process of a run, classified (the driver's lines carry the exit instead; ingest classifies). */
export interface ProcessRecord extends ProcessLine {
  outcome: Outcome;
}

/** The journal file of a run directory. */
export function journalPath(dir: string): string {
  return path.join(dir, 'journal.jsonl');
}

/** Appends one record with a single write, so a crash leaves at most a torn last line. */
export function appendRecord(dir: string, record: JournalHeader | ProcessRecord): void {
  appendLine(journalPath(dir), JSON.stringify(record) + '\n');
}

/** Largest journal read by --resume. */
export const MAX_JOURNAL_BYTES = 256 * 1024 * 1024;

/**
 * The records of a journal file, a run's or a bundle driver's, in order: blank lines are skipped, the size
 * is bounded, and `parse` turns one line into a record (undefined: not one, e.g. a torn last line).
 */
export function journalLines<T>(file: string, parse: (line: string, lineNo: number) => T | undefined): T[] {
  if (!fs.existsSync(file)) return [];
  const out: T[] = [];
  readRegularFile(file, MAX_JOURNAL_BYTES, 'journal')
    .split('\n')
    .forEach((line, i) => {
      const rec = line.trim() ? parse(line, i + 1) : undefined;
      if (rec !== undefined) out.push(rec);
    });
  return out;
}

/** The last record of each process key (a process rerun after a resume replaces its earlier line). */
export function lastPerKey<T extends ProcessLine>(records: Array<T | { type: string }>): T[] {
  const byKey = new Map<string, T>();
  for (const r of records) if (r.type === 'process') byKey.set((r as T).key, r as T);
  return [...byKey.values()];
}

/**
 * Reads a journal; a torn last line (the run was killed mid-write) is ignored, and a record of the
 * wrong shape is refused naming its line (schemas/journal.schema.json).
 */
export function readJournal(dir: string): { header: JournalHeader | null; records: ProcessRecord[] } {
  const file = containedFile(dir, journalPath(dir));
  const lines = journalLines(file, (line, n) => parseRunLine(line, file, n));
  const header = lines.find((r): r is JournalHeader => r.type === 'header') ?? null;
  return { header, records: lastPerKey<ProcessRecord>(lines) };
}

/** One line of a run's journal, checked against schemas/journal.schema.json; undefined for a torn line or another type. */
function parseRunLine(line: string, file: string, n: number): JournalHeader | ProcessRecord | undefined {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return undefined;
  }
  const type = rec !== null && typeof rec === 'object' ? (rec as { type?: unknown }).type : undefined;
  if (type !== 'header' && type !== 'process') return undefined;
  const validate = validatorForDef('journal.schema.json', type);
  const fine = validate(rec) && (type === 'header' || resultIsValid(rec as ProcessRecord));
  if (!fine)
    throw new UserError(
      `${file}:${n}: not a journal record benchgrid wrote (${validate.errors?.[0] ? `${validate.errors[0].instancePath || '(record)'} ${validate.errors[0].message}` : 'its result fails schemas/result.schema.json'}). Start a new run instead of resuming this one.`,
    );
  return rec as JournalHeader | ProcessRecord; // checked by the schema just above
}

function resultIsValid(rec: ProcessRecord): boolean {
  return rec.outcome.kind !== 'result' || validatorFor('result.schema.json')(rec.outcome.result) === true;
}
