// Loading a spec that must be valid: the stages of load.ts / extends.ts, and a UserError carrying every
// diagnostic when it is not. Printing is left to the caller (commands/) and the CLI's error boundary.
import { EXIT, UserError } from '../errors.ts';
import type { Plan } from '../plan/expand.ts';
import { formatDiagnostic, type Diagnostic } from '../spec/diagnostics.ts';
import { loadMerged } from '../spec/extends.ts';
import { loadSpec, type Loaded } from './load.ts';
import type { Manifest } from '../spec/manifests.ts';
import { normalise } from '../spec/normalise.ts';
import { checkSchema, isSpecData } from '../spec/schema.ts';
import type { Spec } from '../spec/types.ts';

/** A spec that loaded without errors; its `diagnostics` are warnings only. */
export type ValidSpec = Loaded & { spec: Spec; plan: Plan; manifests: Record<string, Manifest | Error> };

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

/** Loads a spec through every stage, the runner checks included; throws invalidSpec() when it has errors. */
export async function loadValidSpec(
  file: string,
  options: { quietWarnings?: boolean; allowDownloads?: boolean } = {},
): Promise<ValidSpec> {
  const loaded = await loadSpec(file, undefined, { allowDownloads: options.allowDownloads });
  const { spec, plan, manifests } = loaded;
  if (!spec || !plan || !manifests) throw invalidSpec(file, loaded.diagnostics, options.quietWarnings);
  return { ...loaded, spec, plan, manifests };
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
