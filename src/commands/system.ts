// `benchgrid system`: what makes this machine noisy for a benchmark (in the spirit of `pyperf system show`).
import { systemChecks, renderSystem } from '../system/checks.ts';
import { systemFacts } from '../system/facts.ts';
import { terminalWidth } from '../util/width.ts';

/** Options of `system`. */
export interface SystemOptions {
  json?: boolean;
}

/** Reads the machine (sampling busy processes for a second) and prints the checks, or JSON. */
export async function system(opts: SystemOptions): Promise<void> {
  const facts = await systemFacts(1000);
  const checks = systemChecks(facts);
  if (opts.json) process.stdout.write(JSON.stringify({ facts, checks }, null, 2) + '\n');
  else process.stdout.write(renderSystem(facts, checks, terminalWidth(process.stdout)));
}
