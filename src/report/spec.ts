// The spec as a report needs it: labels, order and page. Loaded without the runner checks on purpose.
import { loadDeclaredSpec } from '../spec/load.ts';
import { readManifest } from '../spec/manifests.ts';
import type { Spec } from '../spec/types.ts';
import { dict } from '../util/dict.ts';

/** Loads a spec for rendering results; the semantic rules are skipped (see loadDeclaredSpec). */
export async function loadSpecForReport(file: string): Promise<Spec> {
  return loadDeclaredSpec(file);
}

/** Tool id -> the library its adapter's manifest names (null when none, or when the manifest is unreadable). */
export function toolLibraries(spec: Spec | null): Record<string, string | null> {
  const out = dict<string | null>();
  if (!spec) return out;
  for (const [id, tool] of Object.entries(spec.tools)) {
    const dir = spec.runners[tool.runner];
    const manifest = dir ? readManifest(dir) : undefined;
    out[id] = manifest && !(manifest instanceof Error) ? (manifest.adapters[tool.adapter]?.library ?? null) : null;
  }
  return out;
}
