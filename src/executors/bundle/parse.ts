// The edge of a bundle that came back from another machine: bundle.json, its journal lines and spec.json
// are parsed into typed data with limits, and every path is held inside the bundle.
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { UserError } from '../../errors.ts';
import { formatDiagnostic } from '../../spec/diagnostics.ts';
import type { SpecData } from '../../spec/data.ts';
import { inside } from '../../spec/places.ts';
import { checkSchema, isSpecData, validatorFor, validatorForDef } from '../../spec/schema.ts';
import { readJsonFile } from '../../util/json-file.ts';
import type { BundleManifest, DriverProcess, DriverRecord } from './manifest.ts';

/** Largest bundle.json read: a manifest lists one entry per process. */
export const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
/** Largest spec.json read; specs are at most 2 MB as YAML. */
export const MAX_BUNDLE_SPEC_BYTES = 8 * 1024 * 1024;

const SCHEMA = 'bundle.schema.json';

/** Checks parsed bundle.json against schemas/bundle.schema.json and holds its paths inside `dir`. */
export function parseManifest(raw: unknown, dir: string, file: string): BundleManifest {
  const validate = validatorFor(SCHEMA);
  if (!validate(raw))
    throw new UserError(
      `${file}: not a bundle manifest benchgrid wrote: ${describe(validate.errors ?? [])}. Export the bundle again.`,
    );
  const m = raw as BundleManifest; // the schema just accepted it; BundleManifest is that schema's type
  const problems: string[] = [];
  if (m.shard.index >= m.shard.count)
    problems.push(`shard.index ${m.shard.index} is not below shard.count ${m.shard.count}`);
  const seenKeys = new Set<string>();
  const seenFiles = new Set<string>();
  m.jobs.forEach((job, i) => {
    if (seenKeys.has(job.key)) problems.push(`jobs[${i}].key '${job.key}' is listed twice`);
    seenKeys.add(job.key);
    for (const field of ['request', 'result', 'stdout', 'stderr'] as const) {
      const why = outsideBundle(dir, job[field]);
      if (why) problems.push(`jobs[${i}].${field} ${JSON.stringify(job[field])} ${why}`);
      const norm = path.normalize(job[field]);
      if (seenFiles.has(norm))
        problems.push(`jobs[${i}].${field} ${JSON.stringify(job[field])} is also another job's file`);
      seenFiles.add(norm);
    }
    job.pythonpath.forEach((p, k) => {
      const why = outsideBundle(dir, p);
      if (why) problems.push(`jobs[${i}].pythonpath[${k}] ${JSON.stringify(p)} ${why}`);
    });
    if (!m.runners.includes(job.runner))
      problems.push(`jobs[${i}].runner '${job.runner}' is not one of the bundle's runners`);
  });
  for (const [id, e] of Object.entries(m.environments)) {
    const why = outsideBundle(dir, e.file);
    if (why) problems.push(`environments.${id}.file ${JSON.stringify(e.file)} ${why}`);
  }
  if (problems.length > 0)
    throw new UserError(
      `${file}: refused: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}. A bundle's paths stay inside it; export the bundle again.`,
    );
  return m;
}

/** Why a path from a manifest does not stay inside the bundle, or undefined when it does. */
export function outsideBundle(dir: string, rel: string): string | undefined {
  if (path.isAbsolute(rel)) return 'is absolute';
  const full = path.resolve(dir, rel);
  if (!inside(full, dir) || full === path.resolve(dir)) return 'leads outside the bundle';
  try {
    const real = fs.realpathSync(full);
    if (!inside(real, fs.realpathSync(dir))) return 'is a symbolic link leading outside the bundle';
  } catch {
    // Not there yet (a process that never ran): the lexical check holds.
  }
  return undefined;
}

/**
 * One journal line as a typed record, or undefined for a torn line (a killed driver leaves one) and
 * for records of unknown types; a record of a known type with a wrong shape is refused.
 */
export function parseJournalLine(line: string, file: string, lineNo: number): DriverRecord | DriverProcess | undefined {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return undefined;
  const type = (rec as { type?: unknown }).type;
  if (type !== 'driver' && type !== 'process') return undefined;
  const validate = validatorForDef(SCHEMA, type === 'driver' ? 'driverRecord' : 'processRecord');
  if (!validate(rec))
    throw new UserError(
      `${file}:${lineNo}: not a journal record the driver wrote: ${describe(validate.errors ?? [])}. Run driver.py again on a fresh copy of the bundle.`,
    );
  return rec as DriverRecord | DriverProcess; // accepted by the schema of its type just above
}

/** Reads a bundle's spec.json and checks it against the spec schema. */
export function readBundleSpecData(file: string): SpecData {
  return specDataOf(readJsonFile(file, MAX_BUNDLE_SPEC_BYTES, 'bundle spec'), file);
}

/** Parsed spec.json checked against the spec schema; a UserError listing the first problems otherwise. */
export function specDataOf(raw: unknown, file: string): SpecData {
  const diagnostics = checkSchema(raw, new Map(), file);
  if (diagnostics.length === 0 && isSpecData(raw)) return raw;
  const first = diagnostics
    .slice(0, 3)
    .map((d) => formatDiagnostic(d))
    .join('; ');
  throw new UserError(
    `${file}: the bundle's spec is not a valid spec (${first || 'rejected by the schema'}). Export the bundle again.`,
  );
}

function describe(errors: ErrorObject[]): string {
  const shown = errors.slice(0, 3).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
  return shown.join('; ') + (errors.length > 3 ? `; and ${errors.length - 3} more` : '');
}
