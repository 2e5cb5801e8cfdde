// `benchgrid plan <spec>`: the expanded matrix as grids, or as JSON.
import { onlyFilter } from '../plan/only.ts';
import { renderPlan } from '../plan/render.ts';
import { loadOrExit } from './load-or-exit.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';

/** Options of `plan`. */
export interface PlanOptions {
  only?: string;
  json?: boolean;
}

/** Prints the plan of a spec. */
export async function plan(file: string, opts: PlanOptions): Promise<void> {
  const { spec, plan } = await loadOrExit(file, opts.json);
  const selected = onlyFilter(opts.only, plan.cells.map((c) => c.id));
  if (opts.json) {
    const cells = plan.cells.filter((c) => selected(c.id)).map((c) => ({
      id: c.id, group: c.group, contract: c.contract, tool: c.tool, subject: c.subject,
      status: c.status, reason: c.reason, environment: c.environment, runner: c.runner,
    }));
    process.stdout.write(JSON.stringify({ spec: spec.name, cells }, null, 2) + '\n');
    return;
  }
  process.stdout.write(renderPlan(spec, plan, selected, useColor(process.stdout), terminalWidth(process.stdout)));
}
