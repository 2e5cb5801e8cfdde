// bench-change's one run seen as two: the cells of TOOL@base and of TOOL@head, each under the tool's own
// id, beside the cells both sides share (the group's raw forward, the baseline of compare's ratio mode).
// compare then matches the sides cell by cell as it matches two runs. Pure.
import type { Cell, Plan } from '../plan/expand.ts';
import { onlyFilter } from '../plan/only.ts';
import type { CellResult, Results } from '../results/model.ts';
import { SIDES, type Side } from '../source/apply.ts';
import { splitToolId } from '../spec/versions.ts';

/** The side a cell's tool belongs to, or null for a cell both sides share. */
export function sideOf(tool: string): Side | null {
  const v = splitToolId(tool).version;
  return v !== null && (SIDES as readonly string[]).includes(v) ? (v as Side) : null;
}

/** A cell id with its tool's side left out: `A/x/hookkit@head/s` -> `A/x/hookkit/s`. */
export function unsided(id: string): string {
  const parts = id.split('/');
  if (parts.length !== 4 || sideOf(parts[2]) === null) return id;
  parts[2] = splitToolId(parts[2]).tool;
  return parts.join('/');
}

/**
 * The cells a change measures: every planned cell of the two sides, and the planned `raw` cell of the
 * same group, contract and subject. `only` (globs) is matched against the ids as the spec names them.
 */
export function changeCells(plan: Plan, only: string | null): string[] {
  const planned = plan.cells.filter((c) => c.status === 'planned');
  const byGlob = onlyFilter(only ?? undefined, [
    ...new Set(planned.filter((c) => sideOf(c.tool) !== null).map((c) => unsided(c.id))),
  ]);
  const sides = planned.filter((c) => sideOf(c.tool) !== null && byGlob(unsided(c.id)));
  const key = (c: Cell) => `${c.group}/${c.contract}/${c.subject}`;
  const wanted = new Set(sides.map(key));
  const raws = planned.filter((c) => c.tool === 'raw' && wanted.has(key(c)));
  return [...sides, ...raws].map((c) => c.id);
}

/** The run as two results: before (base) and after (head), each side's cells under the tool's own id. */
export function splitSides(results: Results): { before: Results; after: Results } {
  const side = (want: Side): Results => ({
    ...results,
    cells: results.cells.flatMap((c): CellResult[] => {
      const s = sideOf(c.tool);
      if (s === null) return [c];
      if (s !== want) return [];
      const tool = splitToolId(c.tool).tool;
      return [{ ...c, id: unsided(c.id), tool }];
    }),
  });
  return { before: side('base'), after: side('head') };
}

/** Whether a cell id (as the spec names it) is one of the compared tool's: the cells bench-change judges. */
export function isToolCell(results: Results): (id: string) => boolean {
  const ids = new Set(results.cells.filter((c) => sideOf(c.tool) !== null).map((c) => unsided(c.id)));
  return (id) => ids.has(id);
}
