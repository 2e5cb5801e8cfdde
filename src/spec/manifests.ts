// Runner manifests, read statically: which adapters a runner has and which contracts each implements.
import fs from 'node:fs';
import path from 'node:path';
import { BUILTIN_RUNNERS } from '../repository.ts';
import { UserError } from '../errors.ts';
import { WIRE_VERSION } from '../wire.ts';
import { dict } from '../util/dict.ts';
import { containedFile } from '../util/files.ts';
import { parseJsonText, readRegularFile } from '../util/json-file.ts';

/** A runner manifest larger than this is not one. */
const MAX_MANIFEST_BYTES = 1024 * 1024;

/** One adapter as a manifest declares it. */
export interface AdapterEntry {
  module: string;
  library: string | null;
  comparable: boolean;
  contracts: string[];
  /** Subject builders the adapter works on (TransformerLens: decoders only); null: any. */
  builders: string[] | null;
}

/** A runner's manifest, with the directory it was read from. */
export interface Manifest {
  runner: string;
  dir: string;
  /** The wire version its adapters speak (the manifest's `protocol` field); always WIRE_VERSION once read. */
  wireVersion: number;
  adapters: Record<string, AdapterEntry>;
}

/**
 * The runners benchgrid ships, by name. Only these are built in: a folder a user adds to runners/ is
 * theirs, declared in their spec's `runners:` like any other (docs/adding-a-tool.md), and never taken
 * for a built-in. A new runner shipped with benchgrid is added here.
 */
export const BUILTIN_RUNNER_NAMES: readonly string[] = ['torch'];

/** Built-in runner directories, by name. */
export function builtinRunnerDirs(): Record<string, string> {
  const out = dict<string>();
  for (const name of BUILTIN_RUNNER_NAMES) {
    const dir = path.join(BUILTIN_RUNNERS, name);
    if (fs.existsSync(path.join(dir, 'manifest.json'))) out[name] = dir;
  }
  return out;
}

/** Runner folders under runners/ that benchgrid does not ship (a user's), by folder name. */
export function userRunnerFolders(): Record<string, string> {
  return runnerFoldersIn(BUILTIN_RUNNERS, BUILTIN_RUNNER_NAMES);
}

/** Folders of `root` holding a manifest.json, by folder name, but those named in `except`; none when `root` is unreadable. */
function runnerFoldersIn(root: string, except: readonly string[] = []): Record<string, string> {
  const out = dict<string>();
  let names: string[] = [];
  try {
    names = fs.readdirSync(root).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    const dir = path.join(root, name);
    if (!except.includes(name) && fs.existsSync(path.join(dir, 'manifest.json'))) out[name] = dir;
  }
  return out;
}

/**
 * Runner folders of the project the user works in: `specs/runners/*` of the nearest directory from
 * `cwd` upwards that has a `specs/` folder (where `benchgrid init --tool` writes a runner), by folder name.
 */
export function projectRunnerFolders(cwd: string = process.cwd()): Record<string, string> {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'specs'))) return runnerFoldersIn(path.join(dir, 'specs', 'runners'));
    if (path.dirname(dir) === dir) return {};
  }
}

const cache = new Map<string, Manifest | Error>();

/** Reads a runner's manifest; returns an Error (not thrown) when it is missing or malformed. */
export function readManifest(dir: string): Manifest | Error {
  const hit = cache.get(dir);
  if (hit) return hit;
  let result: Manifest | Error;
  try {
    // Not through a link out of the runner's directory, read as a regular file of bounded size, and parsed
    // without quoting it: a manifest may be a link to a file that is not one (a token), and no message may
    // show what that holds.
    const file = containedFile(dir, path.join(dir, 'manifest.json'));
    const raw = parseJsonText(
      readRegularFile(file, MAX_MANIFEST_BYTES, 'runner manifest'),
      file,
      'runner manifest',
    ) as Record<string, unknown> & { adapters: unknown };
    if (typeof raw !== 'object' || raw === null || typeof raw.adapters !== 'object')
      throw new Error('it has no "adapters" mapping');
    if (raw.protocol !== WIRE_VERSION) {
      throw new Error(
        `its "protocol" is ${JSON.stringify(raw.protocol ?? null)}, but this benchgrid speaks wire version ${WIRE_VERSION}; update the runner to version ${WIRE_VERSION} (docs/protocol.md) and set "protocol": ${WIRE_VERSION}`,
      );
    }
    const adapters = dict<AdapterEntry>();
    for (const [id, a] of Object.entries(raw.adapters as Record<string, Record<string, unknown>>)) {
      if (typeof a.module !== 'string' || !Array.isArray(a.contracts))
        throw new Error(`adapter '${id}' needs "module" and "contracts"`);
      adapters[id] = {
        module: a.module,
        library: typeof a.library === 'string' ? a.library : null,
        comparable: a.comparable !== false,
        contracts: a.contracts.map(String),
        builders: Array.isArray(a.builders) ? a.builders.map(String) : null,
      };
    }
    result = { runner: String(raw.runner ?? path.basename(dir)), dir, wireVersion: WIRE_VERSION, adapters };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    // A UserError from the reader names the file itself.
    result = new Error(error instanceof UserError ? why : `cannot read ${path.join(dir, 'manifest.json')}: ${why}`);
  }
  cache.set(dir, result);
  return result;
}

/** The adapter a runner's manifest declares, or undefined (a missing runner or one whose manifest failed to read). */
export function adapterLookup(
  manifests: Record<string, Manifest | Error>,
): (runner: string, adapter: string) => AdapterEntry | undefined {
  return (runner, adapter) => {
    const m = manifests[runner];
    return m && !(m instanceof Error) ? m.adapters[adapter] : undefined;
  };
}
