// Environments declared `over` another: each is a layer holding only its own requirements over its base's
// packages (src/env/layered.ts builds it). Pure; used by normalise. A wrong `over` (unknown, a cycle) is
// left as an environment of its own here and reported by the environments rule (src/validate/rules-environments.ts).
import type { EnvironmentData } from './data.ts';
import type { Environment } from './types.ts';
import { requirementName } from './versions.ts';
import { declaresIndex } from './package-index.ts';

/** `base` with each of `pins` replacing the base's line for the same package, or added after them. */
export function overlay(base: string[], pins: string[]): string[] {
  const pinned = new Map(pins.map((p) => [requirementName(p), p]));
  const out = base.map((line) => pinned.get(requirementName(line)) ?? line);
  for (const p of pins) if (!out.includes(p)) out.push(p);
  return out;
}

/** The chain of bases of environment `id` through `over`, nearest first; null when it names an unknown one or loops. */
export function baseChain(envData: Record<string, EnvironmentData>, id: string): string[] | null {
  const chain: string[] = [];
  for (let at = envData[id]?.over; at !== undefined; at = envData[at]?.over) {
    if (!envData[at] || at === id || chain.includes(at)) return null;
    chain.push(at);
  }
  return chain;
}

/** Turns every environment declared `over` a valid base into a layer: its requirements become the base's with
 * its own laid over them (what the cache key and the base constraints read), its interpreter the base's, and
 * its package index its own when it sets any index key, else that of the nearest base that does. */
export function layerEnvironments(
  environments: Record<string, Environment>,
  envData: Record<string, EnvironmentData>,
): void {
  for (const [id, e] of Object.entries(envData)) {
    const chain = baseChain(envData, id);
    if (e.over === undefined || chain === null) continue;
    const root = chain[chain.length - 1];
    let requirements = envData[root].requirements ?? [];
    for (const at of [...chain.slice(0, -1)].reverse().concat(id))
      requirements = overlay(requirements, envData[at].requirements ?? []);
    const indexFrom = [id, ...chain].find((at) => declaresIndex(envData[at])) ?? root;
    environments[id] = {
      ...environments[id],
      python: environments[root].python,
      requirements,
      layer: { base: e.over, requirements: e.requirements ?? [] },
      index: environments[indexFrom].index,
    };
  }
}
