// Whether a tool cell is timed against a baseline in its own processes (docs/protocol.md, "Pairing"), and
// if not, why. Pure: the spec and the runners' manifests decide it, so `validate`, `plan`, a run and a
// bundle all agree.
import { ruleCovers, type AdapterLookup } from './expand.ts';
import type { Spec } from '../spec/types.ts';

/** The tool whose adapter is every paired cell's baseline: the plain forward, nothing attached. */
export const BASELINE_TOOL = 'raw';

/** A cell's pairing: its baseline tool, or why it has none. */
export type Pairing = { baseline: string; unpaired: null } | { baseline: null; unpaired: string };

/**
 * The pairing of a cell of group `groupId` (null for the baseline tool's own cells: they are what the
 * others are divided by). Paired with the group's `raw` tool when the group has one whose adapter
 * implements the contract's kind on the subject's builder, unless the subject says `pairing: off` or an
 * `unpaired` rule of the group covers the cell.
 */
export function pairingOf(
  spec: Spec,
  groupId: string,
  contract: string,
  tool: string,
  subject: string,
  lookup: AdapterLookup,
): Pairing | null {
  if (tool === BASELINE_TOOL) return null;
  const group = spec.groups.find((g) => g.id === groupId);
  const s = spec.subjects[subject];
  if (s?.pairing === 'off')
    return { baseline: null, unpaired: `pairing is off for subject ${subject} (subjects.${subject}.pairing)` };
  const rule = group?.unpaired.find((r) => ruleCovers(r, contract, tool, subject));
  if (rule) return { baseline: null, unpaired: rule.reason };
  if (!group?.tools.includes(BASELINE_TOOL) || !spec.tools[BASELINE_TOOL])
    return { baseline: null, unpaired: `group ${groupId} has no ${BASELINE_TOOL} tool to pair with` };
  const raw = spec.tools[BASELINE_TOOL];
  const kind = spec.contracts[contract]?.kind ?? contract;
  const entry = lookup(raw.runner, raw.adapter);
  const builder = s?.model.builder;
  if (
    !entry?.contracts.includes(kind) ||
    (entry.builders != null && builder !== undefined && !entry.builders.includes(builder))
  ) {
    return {
      baseline: null,
      unpaired: `${BASELINE_TOOL} does not implement ${kind}${builder ? ` on ${builder} subjects` : ''}`,
    };
  }
  return { baseline: BASELINE_TOOL, unpaired: null };
}
