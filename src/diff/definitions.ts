// Definition changes (what cells are measured with) and the cells each invalidates; label changes.
import type { Cell } from '../plan/expand.ts';
import type { Spec } from '../spec/types.ts';
import type { DefinitionChange, DefinitionKind, FieldChange, LabelChange } from './model.ts';
import { DEFINITION, fieldChanges, formerly, renamed, type RenameMaps } from './renames.ts';
import { dictOf } from '../util/dict.ts';

/** A cell planned in both versions: its numbers exist and are valid unless a definition change says otherwise. */
export interface Measured {
  old: Cell;
  new: Cell;
}

/** Everything the definition comparison needs. */
export interface DefinitionInput {
  old: Spec;
  new: Spec;
  maps: RenameMaps;
  measured: Measured[];
}

type Pick = (m: Measured) => boolean;

/** Every definition change, in a fixed order: device, protocol, environments, runners, subjects, contracts, tools, groups, slurm. */
export function definitionChanges(input: DefinitionInput): DefinitionChange[] {
  const { old, new: neu, measured } = input;
  const out: DefinitionChange[] = [];
  const push = (kind: DefinitionKind, id: string | null, fields: FieldChange[], pick: Pick) => {
    if (fields.length > 0)
      out.push({ kind, id, change: 'changed', fields, invalidates: measured.filter(pick).map((m) => m.new.id) });
  };
  const all: Pick = () => true;

  // The device and the protocol decide every number.
  push('device', null, fieldChanges({ device: old.device }, { device: neu.device }), all);
  push('protocol', null, fieldChanges(old.protocol, neu.protocol), all);

  // An environment's `default` flag moves tools between environments; that shows as a tool change.
  out.push(
    ...keyed('environment', old.environments, neu.environments, new Map(), measured, (id, o, n) => {
      // The package index decides which wheels pip installs, so a changed index invalidates like a changed pin.
      const fields = fieldChanges(
        { python: o.python, requirements: o.requirements, index: o.index, default: o.default },
        { python: n.python, requirements: n.requirements, index: n.index, default: n.default },
      );
      const real = fields.some((f) => f.path !== 'default');
      return { fields, pick: (m) => real && m.new.environment === id };
    }),
  );
  out.push(
    ...keyed('runner', wrap(old.runners), wrap(neu.runners), new Map(), measured, (id, o, n) => ({
      fields: fieldChanges({ dir: o.dir }, { dir: n.dir }),
      pick: (m) => m.new.runner === id,
    })),
  );

  // A subject's site mapping matters only to contracts that read a changed site.
  out.push(
    ...keyed('subject', old.subjects, neu.subjects, input.maps.subject, measured, (id, _o, _n, oldId) => {
      const fields = fieldChanges(DEFINITION.subject(old, oldId), DEFINITION.subject(neu, id));
      const sitesOnly = fields.every((f) => f.path.startsWith('sites.'));
      const sites = new Set(fields.map((f) => f.path.slice('sites.'.length)));
      const readsChangedSite = (m: Measured) => {
        const site = neu.contracts[m.new.contract]?.site;
        return site !== null && site !== undefined && sites.has(site);
      };
      return { fields, pick: (m) => m.new.subject === id && (!sitesOnly || readsChangedSite(m)) };
    }),
  );
  out.push(
    ...keyed('contract', old.contracts, neu.contracts, input.maps.contract, measured, (id, _o, _n, oldId) => ({
      fields: fieldChanges(DEFINITION.contract(old, oldId), DEFINITION.contract(neu, id)),
      pick: (m) => m.new.contract === id,
    })),
  );
  out.push(
    ...keyed('tool', old.tools, neu.tools, input.maps.tool, measured, (id, _o, _n, oldId) => ({
      fields: fieldChanges(DEFINITION.tool(old, oldId), DEFINITION.tool(neu, id)),
      pick: (m) => m.new.tool === id,
    })),
  );

  out.push(...groupChanges(input));

  // Slurm settings say where cells run, not what they measure.
  push('slurm', null, fieldChanges(old.slurm, neu.slurm), () => false);
  return out;
}

/**
 * The groups' changes. A new reference tool changes the exactness check of the cells compared with it;
 * `unpaired` rules change how the cells they name are timed (docs/protocol.md, Pairing).
 */
function groupChanges(input: DefinitionInput): DefinitionChange[] {
  const { old, new: neu, measured } = input;
  const groupsOf = (s: Spec) => dictOf(s.groups.map((g) => [g.id, g] as const));
  const toolNow = (t: string | null) => (t === null ? null : renamed(input.maps.tool, t));
  const unpaired = (g: Spec['groups'][number]) =>
    g.unpaired.map((r) => ({ tools: r.tools, contracts: r.contracts, subjects: r.subjects, reason: r.reason }));
  return keyed('group', groupsOf(old), groupsOf(neu), new Map(), measured, (id, o, n) => ({
    fields: fieldChanges(
      { reference: toolNow(o.reference), unpaired: unpaired(o) },
      { reference: n.reference, unpaired: unpaired(n) },
    ),
    pick: (m) =>
      m.new.group === id &&
      (m.new.reference !== toolNow(m.old.reference) ||
        (m.new.pairing?.baseline ?? null) !== (m.old.pairing?.baseline ?? null)),
  }));
}

/** Compares two id-keyed collections (through renames): added, removed, and changed entries. */
function keyed<T>(
  kind: DefinitionKind,
  old: Record<string, T>,
  neu: Record<string, T>,
  renames: Map<string, string>,
  measured: Measured[],
  compare: (id: string, o: T, n: T, oldId: string) => { fields: FieldChange[]; pick: Pick },
): DefinitionChange[] {
  const out: DefinitionChange[] = [];
  for (const id of Object.keys(old)) {
    if (!(id in neu) && !renames.has(id)) out.push({ kind, id, change: 'removed', fields: [], invalidates: [] });
  }
  for (const id of Object.keys(neu)) {
    const oldId = formerly(renames, id);
    if (!(oldId in old)) {
      out.push({ kind, id, change: 'added', fields: [], invalidates: [] });
      continue;
    }
    const { fields, pick } = compare(id, old[oldId], neu[id], oldId);
    if (fields.length > 0)
      out.push({ kind, id, change: 'changed', fields, invalidates: measured.filter(pick).map((m) => m.new.id) });
  }
  return out;
}

function wrap(runners: Record<string, string>): Record<string, { dir: string }> {
  return dictOf(Object.entries(runners).map(([id, dir]) => [id, { dir }] as const));
}

/** Names, titles, descriptions and labels that changed: cosmetic, they invalidate nothing. */
export function labelChanges(old: Spec, neu: Spec, maps: RenameMaps): LabelChange[] {
  const out: LabelChange[] = [];
  const add = (kind: LabelChange['kind'], id: string | null, field: LabelChange['field'], from: string, to: string) => {
    if (from !== to) out.push({ kind, id, field, from, to });
  };
  add('spec', null, 'name', old.name, neu.name);
  add('spec', null, 'title', old.title, neu.title);
  add('spec', null, 'description', old.description, neu.description);
  const each = <T extends { label: string }>(
    kind: LabelChange['kind'],
    o: Record<string, T>,
    n: Record<string, T>,
    map: Map<string, string>,
  ) => {
    for (const [id, thing] of Object.entries(n)) {
      const was = o[formerly(map, id)];
      if (was) add(kind, id, 'label', was.label, thing.label);
    }
  };
  each('subject', old.subjects, neu.subjects, maps.subject);
  each('contract', old.contracts, neu.contracts, maps.contract);
  each('tool', old.tools, neu.tools, maps.tool);
  for (const g of neu.groups) {
    const was = old.groups.find((x) => x.id === g.id);
    if (was) add('group', g.id, 'title', was.title, g.title);
  }
  return out;
}
