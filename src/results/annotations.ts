// Pure: the words every output format shows next to a cell's figure (docs/contracts.md, docs/report.md).
import type { CellResult, Results } from './model.ts';
import { growthText } from './memory-growth.ts';

/** `work: differs (stops at the site)` when the witnesses showed other work than the contract's, else null. */
export function workText(c: CellResult): string | null {
  const differs = c.work?.differs ?? [];
  return differs.length ? `work: differs (${differs.join('; ')})` : null;
}

/** `torch 2.0.1` when the cell ran on another torch than the run's default environment, else null. */
export function runtimeText(c: CellResult, results: Results): string | null {
  const torch = c.runtime?.torch;
  const main = results.versions.torch;
  return torch && main && torch !== main ? `on torch ${torch}` : null;
}

/**
 * Everything to show beside a measured figure, in order: the work difference, memory kept per call
 * (src/results/memory-growth.ts), a different torch, the adapter's notes. Empty for the seed layout's cells,
 * which record none of these.
 */
export function cellAnnotations(c: CellResult, results: Results): string[] {
  const out = [workText(c), growthText(c.memory_growth), runtimeText(c, results)].filter(
    (x): x is string => x !== null,
  );
  for (const n of c.notes ?? []) out.push(`note: ${n}`);
  return out;
}
