// Shared by commands that need a valid spec: load it, print diagnostics, stop with exit 2 when invalid.
import { EXIT, ExitCode } from '../errors.ts';
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { loadMerged } from '../spec/extends.ts';
import { loadSpec, type Loaded } from '../spec/load.ts';
import { normalise } from '../spec/normalise.ts';
import { checkSchema, isSpecData } from '../spec/schema.ts';
import type { Plan } from '../plan/plan.ts';
import type { Spec } from '../spec/types.ts';
import type { Manifest } from '../spec/manifests.ts';

/** A spec that loaded without errors. */
export type ValidSpec = Required<Pick<Loaded, 'spec' | 'plan' | 'manifests'>> & Loaded & { spec: Spec; plan: Plan; manifests: Record<string, Manifest | Error> };

/** Loads a spec; on errors prints them to stderr and throws ExitCode(2). Warnings are printed too. */
export async function loadOrExit(file: string, quietWarnings = false): Promise<ValidSpec> {
  const loaded = await loadSpec(file);
  for (const d of loaded.diagnostics) {
    if (d.severity === 'error' || !quietWarnings) process.stderr.write(formatDiagnostic(d) + '\n');
  }
  if (!loaded.spec) {
    const n = loaded.diagnostics.filter((d) => d.severity === 'error').length;
    process.stderr.write(`benchgrid: ${file} is not a valid spec (${n} error${n === 1 ? '' : 's'}); run \`benchgrid validate ${file}\` after fixing.\n`);
    throw new ExitCode(EXIT.usage);
  }
  return loaded as ValidSpec;
}

/**
 * Loads a spec only as far as its own declarations (read, parse, extends, schema, normalise), without
 * the rules that check it against today's runner manifests: rendering old results and building
 * environments must work while an adapter is missing. Prints diagnostics; throws ExitCode(2).
 */
export async function loadDeclaredOrExit(file: string): Promise<Spec> {
  const merged = await loadMerged(file);
  const diagnostics = merged.doc ? checkSchema(merged.doc.data, merged.doc.positions, merged.doc.file) : merged.diagnostics;
  if (!merged.doc || diagnostics.length > 0 || !isSpecData(merged.doc.data)) {
    for (const d of diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
    const n = diagnostics.filter((d) => d.severity === 'error').length;
    process.stderr.write(`benchgrid: ${file} is not a valid spec (${n} error${n === 1 ? '' : 's'}); run \`benchgrid validate ${file}\` after fixing.\n`);
    throw new ExitCode(EXIT.usage);
  }
  return normalise(merged.doc.data, merged.doc.file, merged.doc.sources, merged.doc.positions);
}
