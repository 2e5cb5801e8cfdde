// A spec file to a spec, by spec/'s own stages: read -> parse YAML -> extends -> schema -> normalise, then
// the files the spec names (its prompts files, its runners' places and manifests). The rules and the plan,
// which judge the spec against its runners, are validate/'s: src/validate/load.ts runs them on what this returns.
import { EXIT, UserError } from '../errors.ts';
import { dict } from '../util/dict.ts';
import type { SpecData } from './data.ts';
import { formatDiagnostic, type Diagnostic } from './diagnostics.ts';
import { loadMerged, type MergedDoc, type Reader } from './extends.ts';
import { readManifest, type Manifest } from './manifests.ts';
import { normalise } from './normalise.ts';
import { pruneSchemaErrors } from './one-pass.ts';
import { checkRunnerPlaces } from './runner-places.ts';
import { checkSchema, isSpecData } from './schema.ts';
import { readSource } from './source.ts';
import { readPromptsFiles } from './text-inputs.ts';
import type { Spec } from './types.ts';

/** A spec file as spec/'s stages leave it, before the rules and the plan. */
export interface ParsedSpec {
  file: string;
  /** The normalised spec; absent when a stage stopped the load (its diagnostics say why). */
  spec?: Spec;
  /** Each runner's manifest, or why it could not be read; present with `spec`. */
  manifests?: Record<string, Manifest | Error>;
  /** With `spec`: what reading its prompts files found. Without: what stopped the load. */
  diagnostics: Diagnostic[];
  /**
   * Set when the schema refused values: its errors, and what was left out of the data so that `spec` could
   * still be built from the rest (one-pass.ts), so the rules can run on it and be folded under these errors.
   */
  refused?: { errors: Diagnostic[]; pruned: Map<string, Diagnostic> };
  /** Texts of every source file (for digests and diffs), when they could be read. */
  texts?: Map<string, string>;
}

/** Reads and parses a spec through spec/'s stages; never throws for bad input. */
export async function parseSpec(file: string, read: Reader = readSource): Promise<ParsedSpec> {
  const merged = await loadMerged(file, read);
  if (!merged.doc) return { file, diagnostics: merged.diagnostics };
  const { doc } = merged;
  const errors = checkSchema(doc.data, doc.positions, doc.file);
  if (errors.length === 0 && isSpecData(doc.data)) return { file, ...namedFiles(doc.data, doc), texts: doc.texts };
  // One pass: the spec without the refused values still goes on, so the rules can run on it (one-pass.ts).
  const pruned = pruneSchemaErrors(doc.data, doc.positions, doc.file, errors);
  if (!pruned) return { file, diagnostics: errors, texts: doc.texts };
  return { file, ...namedFiles(pruned.data, doc), refused: { errors, pruned: pruned.pruned }, texts: doc.texts };
}

/** Normalises schema-valid data and reads what it names: prompts files (read, never run), runners' places and manifests. */
function namedFiles(
  data: SpecData,
  doc: MergedDoc,
): { spec?: Spec; manifests?: Record<string, Manifest | Error>; diagnostics: Diagnostic[] } {
  const spec = normalise(data, doc.file, doc.sources, doc.positions);
  // The one data file a spec may name besides its own sources: read here, so requests carry the prompts.
  const prompts = readPromptsFiles(spec);
  const places = checkRunnerPlaces(spec);
  if (places.length > 0) return { diagnostics: places };
  const manifests = dict<Manifest | Error>();
  for (const [name, dir] of Object.entries(spec.runners)) manifests[name] = readManifest(dir);
  return { spec, manifests, diagnostics: prompts };
}

/** The error for a spec with errors: the diagnostics as details, and what to do as the message. */
export function invalidSpec(file: string, diagnostics: Diagnostic[], quietWarnings = false): UserError {
  const shown = diagnostics.filter((d) => d.severity === 'error' || !quietWarnings);
  const n = diagnostics.filter((d) => d.severity === 'error').length;
  const message = `${file} is not a valid spec (${n} error${n === 1 ? '' : 's'}); run \`benchgrid validate ${file}\` after fixing.`;
  return new UserError(
    message,
    EXIT.usage,
    shown.map((d) => formatDiagnostic(d)),
  );
}

/**
 * Loads a spec only as far as its own declarations (read, parse, extends, schema, normalise), without
 * the rules that check it against today's runner manifests: rendering old results and building
 * environments must work while an adapter is missing. Throws invalidSpec() on errors.
 */
export async function loadDeclaredSpec(file: string): Promise<Spec> {
  const merged = await loadMerged(file);
  const diagnostics = merged.doc
    ? checkSchema(merged.doc.data, merged.doc.positions, merged.doc.file)
    : merged.diagnostics;
  if (!merged.doc || diagnostics.length > 0 || !isSpecData(merged.doc.data)) throw invalidSpec(file, diagnostics);
  return normalise(merged.doc.data, merged.doc.file, merged.doc.sources, merged.doc.positions);
}
