// The runner wire format's facts, read from the one data file the Python harness reads too
// (runners/harness/benchgrid_harness/wire.json): the version of request, result and manifest files,
// and the environment allow-list of a cell process, which only the harness's launch.py applies (every
// launcher starts its processes through it). test/wire.test.ts keeps the schemas equal to it.
import fs from 'node:fs';
import path from 'node:path';
import { HARNESS_DIR } from './repository.ts';

/** Where the wire facts live; the harness package carries it into bundles. */
export const WIRE_FILE = path.join(HARNESS_DIR, 'benchgrid_harness', 'wire.json');

/** How launch.py builds a cell process's environment. */
export interface EnvFacts {
  /** Variables passed through from the parent; everything else is dropped (pyperf does the same). */
  pass: string[];
  /** Variables every cell process gets with these values. */
  set: Record<string, string>;
  /** Variables set to the spec's thread count. */
  threads: string[];
}

/** The contents of wire.json. */
export interface WireFacts {
  wire_version: number;
  env: EnvFacts;
}

/** Parses wire.json; a malformed file is a bug in benchgrid itself, so it throws a plain Error. */
export function parseWireFacts(text: string): WireFacts {
  const raw: unknown = JSON.parse(text);
  const o = (raw ?? {}) as Partial<WireFacts>;
  const env = (o.env ?? {}) as Partial<EnvFacts>;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const values =
    env.set !== null && typeof env.set === 'object' && Object.values(env.set).every((s) => typeof s === 'string');
  if (!Number.isInteger(o.wire_version) || !strings(env.pass) || !values || !strings(env.threads)) {
    throw new Error(`${WIRE_FILE} needs an integer wire_version and env.pass, env.set and env.threads`);
  }
  return { wire_version: o.wire_version!, env: { pass: env.pass, set: env.set!, threads: env.threads } };
}

/** The wire facts of this checkout. */
export const WIRE: WireFacts = parseWireFacts(fs.readFileSync(WIRE_FILE, 'utf8'));

/** Version of the request, result and runner-manifest files (their `protocol` field). */
export const WIRE_VERSION = WIRE.wire_version;
