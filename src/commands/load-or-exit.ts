// Shared by commands that need a valid spec: load it (src/spec/valid.ts throws a UserError carrying the
// diagnostics when it is invalid, which cli.ts prints) and print its warnings here, at the edge.
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { loadDeclaredSpec, loadValidSpec, type ValidSpec } from '../spec/valid.ts';
import type { Spec } from '../spec/types.ts';

export type { ValidSpec };

/** Loads a spec that must be valid; prints its warnings to stderr unless told not to. */
export async function loadOrExit(file: string, quietWarnings = false): Promise<ValidSpec> {
  const valid = await loadValidSpec(file, { quietWarnings });
  if (!quietWarnings) for (const d of valid.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
  return valid;
}

/** Loads a spec as far as its own declarations (see loadDeclaredSpec). */
export async function loadDeclaredOrExit(file: string): Promise<Spec> {
  return loadDeclaredSpec(file);
}
