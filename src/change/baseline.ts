// bench-change times both sides against the plain forward (docs/ci.md, "One run, both sides"): each
// side's cells pair with `raw` in their own processes, and head/base is the ratio of the two sides' paired
// ratios, so what the machine does to a process divides out. A spec whose groups measure the tool without
// `raw` (a tool author's small spec) gets the built-in `raw` added for the comparison, on the contracts its
// adapter implements. Pure: the spec is changed in memory, the same way for a run and its resume.
import { BASELINE_TOOL } from '../plan/pairing.ts';
import type { AdapterLookup } from '../plan/expand.ts';
import type { Spec } from '../spec/types.ts';
import { toolsNamed } from '../source/apply.ts';

/** The runner and adapter of the built-in plain forward. */
const BUILT_IN = { runner: 'torch', adapter: 'raw' } as const;

/**
 * The spec with `raw` in every group that measures the tool named `name` and has none, on each of that
 * group's contracts that the tool is measured on and the built-in raw adapter implements; the groups
 * that got it, for the message. A spec whose `raw` is its own tool keeps it as it is.
 */
export function withBaselineFor(spec: Spec, name: string, lookup: AdapterLookup): { spec: Spec; added: string[] } {
  const { ids } = toolsNamed(spec, name, '--tool');
  const raw = spec.tools[BASELINE_TOOL] ?? {
    id: BASELINE_TOOL,
    label: 'plain forward, nothing attached (added by bench-change)',
    runner: BUILT_IN.runner,
    adapter: BUILT_IN.adapter,
    environment: spec.defaultEnvironment,
    versions: [],
    package: null,
    version: null,
  };
  const entry = lookup(raw.runner, raw.adapter);
  const added: string[] = [];
  const groups = spec.groups.map((g) => {
    if (g.tools.includes(BASELINE_TOOL) || !g.tools.some((t) => ids.includes(t))) return g;
    const implemented = (contract: string) =>
      entry?.contracts.includes(spec.contracts[contract]?.kind ?? contract) ?? false;
    const cells = g.cells.map((c) =>
      c.tools.some((t) => ids.includes(t)) && implemented(c.contract)
        ? { ...c, tools: [BASELINE_TOOL, ...c.tools] }
        : c,
    );
    if (cells.every((c, i) => c === g.cells[i])) return g;
    added.push(g.id);
    return { ...g, cells, tools: [BASELINE_TOOL, ...g.tools] };
  });
  if (added.length === 0) return { spec, added };
  return { spec: { ...spec, groups, tools: { ...spec.tools, [BASELINE_TOOL]: raw } }, added };
}
