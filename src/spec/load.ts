// The staged spec loader: read -> parse YAML -> extends -> schema -> normalise -> rules, in one pass.
import { loadMerged, type Reader } from './extends.ts';
import { adapterLookup, readManifest, type Manifest } from './manifests.ts';
import { normalise } from './normalise.ts';
import { checkRules } from './rules.ts';
import { checkRunnerPlaces } from './runner-places.ts';
import { checkSchema, isSpecData } from './schema.ts';
import { readSource } from './source.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { Spec } from './types.ts';
import { planSpec, type Plan } from '../plan/plan.ts';

/** A loaded spec with its plan; `spec` is absent when an error-level diagnostic stopped the load. */
export interface Loaded {
  file: string;
  spec?: Spec;
  plan?: Plan;
  manifests?: Record<string, Manifest | Error>;
  /** Texts of every source file (for digests and diffs), when they could be read. */
  texts?: Map<string, string>;
  diagnostics: Diagnostic[];
}

/** Whether any diagnostic is an error. */
export function hasErrors(diagnostics: Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Loads and checks a spec; never throws for bad input. */
export async function loadSpec(file: string, read: Reader = readSource): Promise<Loaded> {
  const merged = await loadMerged(file, read);
  if (!merged.doc) return { file, diagnostics: merged.diagnostics };
  const { doc } = merged;
  const schemaErrors = checkSchema(doc.data, doc.positions, doc.file);
  if (schemaErrors.length > 0 || !isSpecData(doc.data)) return { file, diagnostics: schemaErrors, texts: doc.texts };
  const spec = normalise(doc.data, doc.file, doc.sources, doc.positions);
  const places = checkRunnerPlaces(spec);
  if (places.length > 0) return { file, diagnostics: places, texts: doc.texts };
  const manifests: Record<string, Manifest | Error> = {};
  for (const [name, dir] of Object.entries(spec.runners)) manifests[name] = readManifest(dir);
  const plan = planSpec(spec, adapterLookup(manifests));
  const diagnostics = sortDiagnostics(checkRules({ spec, manifests, plan }));
  if (hasErrors(diagnostics)) return { file, diagnostics, texts: doc.texts };
  return { file, spec, plan, manifests, diagnostics, texts: doc.texts };
}

function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => (a.file === b.file ? a.line - b.line || a.col - b.col : a.file < b.file ? -1 : 1));
}
