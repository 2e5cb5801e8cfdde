// The staged spec loader: read -> parse YAML -> extends -> schema -> normalise -> rules, in one pass.
import { loadMerged, type MergedDoc, type Reader } from '../spec/extends.ts';
import { foldUnderSchema, pruneSchemaErrors } from '../spec/one-pass.ts';
import type { SpecData } from '../spec/data.ts';
import { adapterLookup, readManifest, type Manifest } from '../spec/manifests.ts';
import { normalise } from '../spec/normalise.ts';
import { readPromptsFiles } from '../spec/text-inputs.ts';
import { checkRules, type RuleInput } from './rules.ts';
import { checkRunnerPlaces } from '../spec/runner-places.ts';
import { checkSchema, isSpecData } from '../spec/schema.ts';
import { foldFollowOns } from '../spec/fold.ts';
import { foldMisspeltDeclarations } from './misspelt.ts';
import { readSource } from '../spec/source.ts';
import type { Diagnostic } from '../spec/diagnostics.ts';
import type { Spec } from '../spec/types.ts';
import { planSpec, type Plan } from '../plan/expand.ts';
import { dict } from '../util/dict.ts';

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
export async function loadSpec(
  file: string,
  read: Reader = readSource,
  options: RuleInput['options'] = {},
): Promise<Loaded> {
  const merged = await loadMerged(file, read);
  if (!merged.doc) return { file, diagnostics: merged.diagnostics };
  const { doc } = merged;
  const schemaErrors = checkSchema(doc.data, doc.positions, doc.file);
  if (schemaErrors.length > 0 || !isSpecData(doc.data)) {
    // One pass: the semantic rules still run on the spec without the refused values (one-pass.ts).
    const pruned = pruneSchemaErrors(doc.data, doc.positions, doc.file, schemaErrors);
    if (!pruned) return { file, diagnostics: schemaErrors, texts: doc.texts };
    const semantic = semanticCheck(pruned.data, doc, options).diagnostics.filter((d) => d.severity === 'error');
    return {
      file,
      diagnostics: sortDiagnostics(foldUnderSchema(schemaErrors, semantic, pruned.pruned)),
      texts: doc.texts,
    };
  }
  const { spec, plan, manifests, diagnostics } = semanticCheck(doc.data, doc, options);
  if (!spec || !plan || !manifests || hasErrors(diagnostics)) return { file, diagnostics, texts: doc.texts };
  return { file, spec, plan, manifests, diagnostics, texts: doc.texts };
}

/** Stages 5 and 6 on schema-valid data: normalise, the runners' places and manifests, the plan, the rules. */
function semanticCheck(
  data: SpecData,
  doc: MergedDoc,
  options: RuleInput['options'],
): { spec?: Spec; plan?: Plan; manifests?: Record<string, Manifest | Error>; diagnostics: Diagnostic[] } {
  const spec = normalise(data, doc.file, doc.sources, doc.positions);
  // The one data file a spec may name besides its own sources: read (never run) here, so requests carry the prompts.
  const prompts = readPromptsFiles(spec);
  const places = checkRunnerPlaces(spec);
  if (places.length > 0) return { diagnostics: places };
  const manifests = dict<Manifest | Error>();
  for (const [name, dir] of Object.entries(spec.runners)) manifests[name] = readManifest(dir);
  const plan = planSpec(spec, adapterLookup(manifests));
  const folded = foldFollowOns(sortDiagnostics([...prompts, ...checkRules({ spec, manifests, plan, options })]));
  return { spec, plan, manifests, diagnostics: sortDiagnostics(foldMisspeltDeclarations(folded, { spec, manifests })) };
}

function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => (a.file === b.file ? a.line - b.line || a.col - b.col : a.file < b.file ? -1 : 1));
}
