// Loading a spec that must be valid: every stage of load.ts, and a UserError carrying every diagnostic when
// it is not (invalidSpec, src/spec/load.ts). Printing is left to the caller (commands/) and the CLI's error boundary.
import type { Plan } from '../plan/expand.ts';
import { invalidSpec } from '../spec/load.ts';
import { loadSpec, type Loaded } from './load.ts';
import type { Manifest } from '../spec/manifests.ts';
import type { Spec } from '../spec/types.ts';

/** A spec that loaded without errors; its `diagnostics` are warnings only. */
export type ValidSpec = Loaded & { spec: Spec; plan: Plan; manifests: Record<string, Manifest | Error> };

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
