// What a change measures, before anything runs: the spec with raw added where the tool's groups lack it
// (baseline.ts), the two sides' sources applied (src/source/prepare.ts), and the cells of the tool and
// their raw forwards; a change that cannot be judged on paired ratios is refused here. Shared by
// bench-change and bisect (each of bisect's steps is one such change). Starts nothing but git.
import type { Plan } from '../plan/expand.ts';
import { UserError } from '../errors.ts';
import { adapterLookup } from '../spec/manifests.ts';
import { prepareSources, type Prepared, type SourceRequest } from '../source/prepare.ts';
import type { ValidSpec } from '../validate/valid.ts';
import { withBaselineFor } from './baseline.ts';
import { changeCells, sideOf } from './sides.ts';

/** The tool a change compares and the --only globs it was given (as the journal header records them). */
export interface ChangeTarget {
  tool: string;
  only: string | null;
}

/** A prepared change: the spec and plan with both sides, the cells to run, and what to tell the user. */
export interface PreparedChange {
  prepared: Prepared;
  cells: string[];
  /** Said on stderr when raw was added to groups that lacked it; null when none was. */
  notice: string | null;
}

/** Prepares one change of `target.tool` between the sources `requests` names (base and head); `command` starts the messages. */
export async function prepareChange(
  loaded: ValidSpec,
  specFile: string,
  target: ChangeTarget,
  requests: SourceRequest[],
  command: string,
): Promise<PreparedChange> {
  // Both sides are timed against the plain forward in their own processes: a group without raw gets it.
  const baseline = withBaselineFor(loaded.spec, target.tool, adapterLookup(loaded.manifests));
  const n = baseline.added.length;
  const notice =
    n === 0
      ? null
      : `group${n === 1 ? '' : 's'} ${baseline.added.join(', ')} of ${specFile} ${n === 1 ? 'has' : 'have'} no raw tool; the built-in raw is added for this comparison, so that both sides are timed against the plain forward in their own processes.`;
  const prepared = await prepareSources({ ...loaded, spec: baseline.spec }, requests);
  const cells = changeCells(prepared.plan, target.only);
  if (cells.length === 0)
    throw new UserError(
      `${command}: ${target.tool} has no planned cell in ${specFile}${target.only ? ` matching --only ${target.only}` : ''}; nothing to compare.`,
    );
  refuseUnpaired(prepared.plan, cells, target.tool, `${command}: none of ${target.tool}'s cells in ${specFile}`);
  return { prepared, cells, notice };
}

/**
 * A comparison in which no cell of the tool pairs with raw would judge absolute times of two sets of
 * processes, which a busy machine moves by more than a change: refused with each cell's reason. Cells that
 * cannot pair beside others that do are compared as they can be, and the comparison says so per cell.
 */
function refuseUnpaired(plan: Plan, cells: string[], tool: string, what: string): void {
  const selected = new Set(cells);
  const sides = plan.cells.filter((c) => selected.has(c.id) && sideOf(c.tool) !== null);
  if (sides.length === 0 || sides.some((c) => c.pairing?.baseline)) return;
  const reasons = [...new Set(sides.map((c) => c.pairing?.unpaired ?? 'it does not pair'))];
  throw new UserError(
    `${what} can be timed against the plain forward in its own processes (${reasons.join('; ')}), so the comparison would judge absolute times, which load moves by more than a change. Give ${tool} a contract the built-in raw tool implements, or compare two runs with \`benchgrid compare --mode absolute\`.`,
  );
}
