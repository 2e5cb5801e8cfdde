// `benchgrid plan <spec>`: the expanded matrix as grids, or as JSON.
import { onlyFilter } from '../plan/only.ts';
import { renderPlan } from '../plan/render.ts';
import { loadSpecAndWarn } from './load-spec.ts';
import { costOf, renderCost } from './plan-cost.ts';
import { TIMING_FLAGS, type SettingFlags, type TimingFlag } from '../settings/settings.ts';
import { useColor } from '../util/tty.ts';
import { terminalWidth } from '../util/width.ts';

/** Options of `plan`: the timing flags are run's, so the cost printed is that of the run they describe. */
export interface PlanOptions extends Pick<SettingFlags, TimingFlag['key']> {
  only?: string;
  json?: boolean;
  /** true (--sizes): ask pip what the environments still to build download (starts the spec's interpreter). */
  sizes?: boolean;
}

/** Prints the plan of a spec. */
export async function plan(file: string, opts: PlanOptions): Promise<void> {
  const { spec, plan, manifests } = await loadSpecAndWarn(file, opts.json);
  const selected = onlyFilter(
    opts.only,
    plan.cells.map((c) => c.id),
  );
  const flags: SettingFlags = Object.fromEntries(TIMING_FLAGS.map((f) => [f.key, opts[f.key]]));
  const cost = await costOf(spec, plan, manifests, { only: opts.only, flags, sizes: opts.sizes === true }, (s) =>
    process.stderr.write(`benchgrid: ${s}\n`),
  );
  if (opts.json) {
    const cells = plan.cells
      .filter((c) => selected(c.id))
      .map((c) => ({
        id: c.id,
        group: c.group,
        contract: c.contract,
        tool: c.tool,
        subject: c.subject,
        status: c.status,
        reason: c.reason,
        environment: c.environment,
        runner: c.runner,
      }));
    process.stdout.write(
      JSON.stringify({ spec: spec.name, cells, cost: cost.cost, environments_to_build: cost.build }, null, 2) + '\n',
    );
    return;
  }
  const width = terminalWidth(process.stdout);
  process.stdout.write(
    renderPlan(spec, plan, selected, useColor(process.stdout), width) + renderCost(cost, width).join('\n') + '\n',
  );
}
