// The planner: a pure function from a resolved Spec (and the runners' static manifests) to cells.
import type { AdapterEntry } from '../spec/manifests.ts';
import type { ReasonRule, Spec } from '../spec/types.ts';
import { satisfies } from '../spec/version-range.ts';
import { expandToolList, splitToolId } from '../spec/versions.ts';
import { pairingOf, type Pairing } from './pairing.ts';
import { expandSubjectList } from '../spec/subjects.ts';
import { namesSubject } from '../spec/sweep.ts';

/** One cell of the matrix: a contract done by a tool on a subject, within a group. */
export interface Cell {
  id: string;
  group: string;
  contract: string;
  /** The contract's kind: the function name adapters implement. */
  kind: string;
  tool: string;
  subject: string;
  status: 'planned' | 'unsupported';
  reason: string | null;
  environment: string;
  runner: string;
  adapter: string;
  /** Whether the tool's adapter implements the contract (known statically from its manifest). */
  implemented: boolean;
  /** The reason rule covering this cell, by index in its group's `unsupported`; null when none. */
  rule: number | null;
  /** The group's reference tool when this cell's result is compared with it, else null. */
  reference: string | null;
  /** Its baseline tool when its processes time it against one (src/plan/pairing.ts), else why not; null for the baseline's own cells. */
  pairing: Pairing | null;
}

/** The expanded matrix. */
export interface Plan {
  spec: string;
  cells: Cell[];
}

/** Looks up the adapter entry of a tool; undefined when the runner or adapter does not exist. */
export type AdapterLookup = (runner: string, adapter: string) => AdapterEntry | undefined;

/** Stable cell id: GROUP/contract/tool/subject. */
export function cellId(group: string, contract: string, tool: string, subject: string): string {
  return `${group}/${contract}/${tool}/${subject}`;
}

/** Whether a reason rule covers a cell. */
export function ruleCovers(rule: ReasonRule, contract: string, tool: string, subject: string): boolean {
  // A reason names a versioned tool by its declared id; `versions` narrows it to a range of releases.
  const { tool: declared, version } = splitToolId(tool);
  const inRange = rule.versions === null || (version !== null && satisfies(version, rule.versions));
  return (
    (rule.tools === null || rule.tools.includes(tool) || rule.tools.includes(declared)) &&
    inRange &&
    (rule.contracts === null || rule.contracts.includes(contract)) &&
    // A subject an axis made (gpt2@bf16, gpt2@seq=256@bf16) is covered by a reason naming it or one it was made from.
    (rule.subjects === null || rule.subjects.some((named) => namesSubject(named, subject)))
  );
}

/**
 * Expands every group, in a stable order: groups as declared, then subjects, contracts and tools as
 * declared (a versioned tool's releases in declared order). A cell is planned when its adapter implements the contract and no reason excludes it.
 */
export function planSpec(spec: Spec, lookup: AdapterLookup): Plan {
  const cells: Cell[] = [];
  for (const group of spec.groups) {
    for (const subject of expandSubjectList(spec.subjects, group.subjects)) {
      for (const { contract, tools } of group.cells) {
        for (const tool of expandToolList(spec.tools, tools)) {
          const t = spec.tools[tool];
          const kind = spec.contracts[contract]?.kind ?? contract;
          const entry = t ? lookup(t.runner, t.adapter) : undefined;
          const builder = spec.subjects[subject]?.model.builder;
          const implemented =
            (entry?.contracts.includes(kind) ?? false) && (entry?.builders == null || entry.builders.includes(builder));
          const ruleIndex = group.unsupported.findIndex((r) => ruleCovers(r, contract, tool, subject));
          const rule = ruleIndex >= 0 ? group.unsupported[ruleIndex] : undefined;
          const planned = implemented && !rule;
          const comparable = entry?.comparable ?? true;
          cells.push({
            id: cellId(group.id, contract, tool, subject),
            group: group.id,
            contract,
            kind,
            tool,
            subject,
            status: planned ? 'planned' : 'unsupported',
            reason: rule
              ? rule.reason
              : planned
                ? null
                : `${t?.adapter ?? tool} does not implement ${kind} on ${builder ?? subject} subjects`,
            environment: t?.environment ?? spec.defaultEnvironment,
            runner: t?.runner ?? 'torch',
            adapter: t?.adapter ?? tool,
            implemented,
            rule: rule ? ruleIndex : null,
            reference: group.reference && group.reference !== tool && comparable ? group.reference : null,
            pairing: pairingOf(spec, group.id, contract, tool, subject, lookup),
          });
        }
      }
    }
  }
  return { spec: spec.name, cells };
}
