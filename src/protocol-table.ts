// The spec's timing settings as one table (runners/harness/benchgrid_harness/protocol.json), read here and
// by the harness's protocol.py, which checks the request's settings with it: each key's type, default,
// bounds, command-line flag and whether the harness receives it. The defaults, the timing flags and the
// request's settings come from it, and scripts/gen-protocol.ts writes the schemas' blocks from it
// (test/settings/protocol-table.test.ts fails when they drift).
import fs from 'node:fs';
import path from 'node:path';
import { HARNESS_DIR } from './repository.ts';

/** Where the table lives; the harness package carries it into bundles. */
export const PROTOCOL_FILE = path.join(HARNESS_DIR, 'benchgrid_harness', 'protocol.json');

/** JSON Schema's bounds of a number, as the table spells them. */
export interface Bounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** The command-line override of a key. */
export interface FlagRow {
  /** commander's flags, e.g. `--samples <n>`. */
  name: string;
  /** Its place among the timing flags in `--help`. */
  rank: number;
  help: string;
  /** A percentage (`--precision 2` is 0.02, `off` is null) instead of an integer. */
  percent?: boolean;
}

/** One key of the spec's `protocol:` section. */
export interface ProtocolRow extends Bounds {
  key: string;
  type: 'integer' | 'number' | 'enum' | 'object';
  /** Absent: the spec loader makes it (exactness); null: none, and the schema accepts null. */
  default?: number | string | null;
  enum?: string[];
  flag?: FlagRow;
  /** The files that record the flag's value: the journal header's and the bundle manifest's overrides. */
  overrides: ('journal' | 'bundle')[];
  /** Copied into the request's settings under the same key. */
  harness: boolean;
  /** Carried from the spec to the request without TypeScript naming it (only the harness reads it). */
  passthrough?: boolean;
  /** The request schema's description of it, where it differs from the spec's. */
  request_note?: string;
  description: string;
  /** The schema of a structured key, written as is. */
  schema?: Record<string, unknown>;
}

/** A request setting the orchestrator derives from the protocol (not a key of the spec). */
export interface RequestRow extends Bounds {
  key: string;
  type: 'integer' | 'number' | 'object';
  required: boolean;
  /** What it is made from. */
  from: string;
  request_note?: string;
  schema?: Record<string, unknown>;
}

/** The contents of protocol.json. */
export interface ProtocolTable {
  keys: ProtocolRow[];
  request: RequestRow[];
  /** Overrides beside the protocol's own (the device), with their schemas. */
  overrides_beside: Record<string, Record<string, unknown>>;
}

/** Parses protocol.json; a malformed table is a bug in benchgrid itself, so it throws a plain Error. */
export function parseProtocolTable(text: string): ProtocolTable {
  const t = JSON.parse(text) as Partial<ProtocolTable>;
  const rowsOk =
    Array.isArray(t.keys) &&
    t.keys.every(
      (r) =>
        typeof r.key === 'string' &&
        typeof r.type === 'string' &&
        typeof r.harness === 'boolean' &&
        Array.isArray(r.overrides),
    );
  if (!rowsOk || !Array.isArray(t.request) || typeof t.overrides_beside !== 'object' || t.overrides_beside === null) {
    throw new Error(
      `${PROTOCOL_FILE} needs keys (rows with key, type, overrides and harness), request and overrides_beside`,
    );
  }
  return t as ProtocolTable;
}

/** The table of this checkout. */
export const PROTOCOL_TABLE: ProtocolTable = parseProtocolTable(fs.readFileSync(PROTOCOL_FILE, 'utf8'));

/** Every key's default, for the keys the table gives one. */
export function tableDefaults(table: ProtocolTable = PROTOCOL_TABLE): Record<string, number | string | null> {
  return Object.fromEntries(table.keys.filter((r) => r.default !== undefined).map((r) => [r.key, r.default!]));
}
