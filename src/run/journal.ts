// The append-only journal of a run: one JSON line per finished process, written as it finishes.
import fs from 'node:fs';
import path from 'node:path';
import type { Overrides } from './jobs.ts';
import type { Schedule } from './schedule.ts';
import type { Outcome } from './outcome.ts';

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
  fs.appendFileSync(journalPath(dir), JSON.stringify(record) + '\n');
}

/** Reads a journal; a torn last line (the run was killed mid-write) is ignored. */
export function readJournal(dir: string): { header: JournalHeader | null; records: ProcessRecord[] } {
  const file = journalPath(dir);
  if (!fs.existsSync(file)) return { header: null, records: [] };
  let header: JournalHeader | null = null;
  const records = new Map<string, ProcessRecord>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let rec: JournalHeader | ProcessRecord;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (rec.type === 'header') header ??= rec;
    else if (rec.type === 'process') records.set(rec.key, rec);
  }
  return { header, records: [...records.values()] };
}
