// The append-only journal of a run: one JSON line per finished process, written as it finishes.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../errors.ts';
import { appendLine, containedFile } from '../util/files.ts';
import { validatorFor, validatorForDef } from '../spec/schema.ts';
import type { Overrides } from '../settings/settings.ts';
import type { Schedule } from './schedule.ts';
import type { Outcome } from './outcome.ts';
import type { SourceRequest } from '../source/prepare.ts';

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

/** One finished process. */
export interface ProcessRecord {
  type: 'process';
  key: string;
  cell: string;
  kind: 'time' | 'memory' | 'aa';
  index: number;
  started: string;
  wall_s: number;
  cpus: number[] | null;
  start: 'cold' | 'fork';
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
 * Reads a journal; a torn last line (the run was killed mid-write) is ignored, and a record of the
 * wrong shape is refused naming its line (schemas/journal.schema.json).
 */
export function readJournal(dir: string): { header: JournalHeader | null; records: ProcessRecord[] } {
  const file = containedFile(dir, journalPath(dir));
  if (!fs.existsSync(file)) return { header: null, records: [] };
  const size = fs.statSync(file).size;
  if (size > MAX_JOURNAL_BYTES) throw new UserError(`${file}: the journal is ${(size / 1048576).toFixed(0)} MB; at most ${MAX_JOURNAL_BYTES / 1048576} MB is read (docs/security.md).`);
  let header: JournalHeader | null = null;
  const records = new Map<string, ProcessRecord>();
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      return;
    }
    const type = rec !== null && typeof rec === 'object' ? (rec as { type?: unknown }).type : undefined;
    if (type !== 'header' && type !== 'process') return;
    const validate = validatorForDef('journal.schema.json', type);
    const fine = validate(rec) && (type === 'header' || resultIsValid(rec as ProcessRecord));
    if (!fine) throw new UserError(`${file}:${i + 1}: not a journal record benchgrid wrote (${validate.errors?.[0] ? `${validate.errors[0].instancePath || '(record)'} ${validate.errors[0].message}` : 'its result fails schemas/result.schema.json'}). Start a new run instead of resuming this one.`);
    if (type === 'header') header ??= rec as JournalHeader; // checked by the schema just above
    else records.set((rec as ProcessRecord).key, rec as ProcessRecord);
  });
  return { header, records: [...records.values()] };
}

function resultIsValid(rec: ProcessRecord): boolean {
  return rec.outcome.kind !== 'result' || validatorFor('result.schema.json')(rec.outcome.result) === true;
}
