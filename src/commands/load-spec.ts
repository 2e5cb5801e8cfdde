// Shared by commands that need a valid spec: load it (src/validate/valid.ts throws a UserError carrying the
// diagnostics when it is invalid, which cli.ts prints) and print its warnings here, at the edge.
import { formatDiagnostic } from '../spec/diagnostics.ts';
import { loadValidSpec, type ValidSpec } from '../validate/valid.ts';

export type { ValidSpec };

/** Loads a spec that must be valid; prints its warnings to stderr unless told not to. */
export async function loadSpecAndWarn(file: string, quietWarnings = false, allowDownloads = false): Promise<ValidSpec> {
  const valid = await loadValidSpec(file, { quietWarnings, allowDownloads });
  if (!quietWarnings) for (const d of valid.diagnostics) process.stderr.write(formatDiagnostic(d) + '\n');
  return valid;
}
