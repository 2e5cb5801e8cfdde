// The whole spec loader: spec/'s stages (src/spec/load.ts: read, parse YAML, extends, schema, normalise, the
// files the spec names), then the plan and the rules that check the spec against its runners, in one pass.
import type { Reader } from '../spec/extends.ts';
import { foldUnderSchema } from '../spec/one-pass.ts';
import { adapterLookup, type Manifest } from '../spec/manifests.ts';
import { checkRules, type RuleInput } from './rules.ts';
import { foldFollowOns } from '../spec/fold.ts';
import { foldMisspeltDeclarations } from './misspelt.ts';
import { parseSpec } from '../spec/load.ts';
import { readSource } from '../spec/source.ts';
import type { Diagnostic } from '../spec/diagnostics.ts';
import type { Spec } from '../spec/types.ts';
import { planSpec, type Plan } from '../plan/expand.ts';

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
  const { spec, manifests, refused, diagnostics: parsed, ...source } = await parseSpec(file, read);
  const checked: { plan?: Plan; diagnostics: Diagnostic[] } =
    spec && manifests ? checkParsed(spec, manifests, parsed, options) : { diagnostics: parsed };
  if (refused) {
    // Only the rules' errors, each under the schema error whose refused value it follows from (one-pass.ts).
    const semantic = checked.diagnostics.filter((d) => d.severity === 'error');
    return { ...source, diagnostics: sortDiagnostics(foldUnderSchema(refused.errors, semantic, refused.pruned)) };
  }
  const { plan, diagnostics } = checked;
  if (!spec || !plan || !manifests || hasErrors(diagnostics)) return { ...source, diagnostics };
  return { ...source, spec, plan, manifests, diagnostics };
}

/** The plan and the rules on a parsed spec, with the parse's own diagnostics (its prompts files) among theirs. */
function checkParsed(
  spec: Spec,
  manifests: Record<string, Manifest | Error>,
  parsed: Diagnostic[],
  options: RuleInput['options'],
): { plan: Plan; diagnostics: Diagnostic[] } {
  const plan = planSpec(spec, adapterLookup(manifests));
  const folded = foldFollowOns(sortDiagnostics([...parsed, ...checkRules({ spec, manifests, plan, options })]));
  return { plan, diagnostics: sortDiagnostics(foldMisspeltDeclarations(folded, { spec, manifests })) };
}

function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return [...ds].sort((a, b) => (a.file === b.file ? a.line - b.line || a.col - b.col : a.file < b.file ? -1 : 1));
}
