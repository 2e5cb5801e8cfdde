// A bundle's manifest (`bundle.json`) and journal: the contract between `export`, the Python driver and `ingest`.
import fs from 'node:fs';
import path from 'node:path';
import { UserError } from '../../errors.ts';
import type { Overrides } from '../../settings/settings.ts';
import type { Schedule } from '../../run/schedule.ts';
import type { ExitRecord } from '../../records/outcome.ts';
import type { ProcessPurpose } from '../../run/jobs.ts';
import { readJsonFile } from '../../util/json-file.ts';
import { MAX_MANIFEST_BYTES, parseJournalLine, parseManifest } from './parse.ts';
import { journalLines, lastPerKey, type ProcessLine } from '../../records/journal.ts';
import { containedFile } from '../../util/files.ts';

/** Version of bundle.json; runners/harness/driver.py checks it. */
export const BUNDLE_FORMAT = 1;

/** The manifest's file name inside a bundle. */
export const MANIFEST_FILE = 'bundle.json';

/** One cell process of a bundle; paths are relative to the bundle, with `/`. */
export interface BundleJob {
  key: string;
  cell: string;
  kind: ProcessPurpose;
  index: number;
  environment: string;
  runner: string;
  request: string;
  result: string;
  stdout: string;
  stderr: string;
  timeout_s: number;
  threads: number;
  /** Directories put on PYTHONPATH: the harness, the tool's runner, the reference's runner. */
  pythonpath: string[];
}

/** bundle.json. */
export interface BundleManifest {
  format: number;
  protocol: number;
  created: string;
  spec: { name: string; title: string; digest: string; device: 'cpu' | 'cuda'; file: string };
  /** The device the requests name (the spec's, or an override). */
  device: 'cpu' | 'cuda';
  only: string | null;
  /** The export's schedule: `jobs` are in its order (absent in bundles written before it). */
  schedule?: Schedule;
  overrides: Overrides;
  shard: { index: number; count: number };
  /** Every runner the spec's tools use, copied under runners/<name>. */
  runners: string[];
  environments: Record<string, { python: string; requirements: string[]; file: string }>;
  jobs: BundleJob[];
}

/** The driver's record of one session: the machine it ran on. */
export interface DriverRecord {
  type: 'driver';
  v: 1;
  started: string;
  spec_digest: string;
  shard: { index: number; count: number } | null;
  hostname: string;
  platform: string;
  cpu_count: number | null;
  cpu_model: string | null;
  load_average_1m: number | null;
  cpus: number[] | null;
  python: string;
  interpreters: Record<string, string>;
  slurm: { job_id: string; array_job_id: string | null; array_task_id: string | null; node: string | null } | null;
  /** `driver.py --setup-env`: the venv built from the bundle's wheelhouse over the base interpreter (docs/gpu.md). */
  environment_setup?: Record<string, unknown>;
}

/** The driver's record of one finished process; `exit` has the fields of `Exit`, with null for absent. */
export interface DriverProcess extends ProcessLine {
  start: 'cold';
  exit: ExitRecord;
}

/** Reads and checks bundle.json; throws UserError naming the directory. */
export function readManifestFile(dir: string): BundleManifest {
  const file = containedFile(dir, path.join(dir, MANIFEST_FILE));
  if (!fs.existsSync(file))
    throw new UserError(
      `${dir}: not a bundle (no ${MANIFEST_FILE} there; give a directory \`benchgrid export\` wrote).`,
    );
  const raw = readJsonFile(file, MAX_MANIFEST_BYTES, 'bundle manifest');
  const format = raw !== null && typeof raw === 'object' ? (raw as { format?: unknown }).format : undefined;
  if (format !== BUNDLE_FORMAT)
    throw new UserError(
      `${file}: bundle format ${JSON.stringify(format) ?? 'missing'}, but this benchgrid reads format ${BUNDLE_FORMAT}.`,
    );
  return parseManifest(raw, dir, file);
}

/** The driver's journal: its sessions and the last record of each process (a torn line is ignored). */
export function readDriverJournal(dir: string): { drivers: DriverRecord[]; processes: DriverProcess[] } {
  const file = containedFile(dir, path.join(dir, 'journal.jsonl'));
  const lines = journalLines(file, (line, n) => parseJournalLine(line, file, n));
  return {
    drivers: lines.filter((r): r is DriverRecord => r.type === 'driver'),
    processes: lastPerKey<DriverProcess>(lines),
  };
}

/** Parses `--shard I/N` (1-based I on the command line) into a 0-based index and a count. */
export function parseShard(value: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value.trim());
  const i = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || i < 1 || i > n)
    throw new UserError(`--shard expects I/N with 1 <= I <= N, e.g. --shard 1/2 (got '${value}').`);
  return { index: i - 1, count: n };
}
