// The options bench-change and bisect share: how a change's cells are run, and how they are judged in
// compare's wording (threshold, mode).
import { Option, type Command } from 'commander';
import { addShared } from '../cli-options.ts';
import { THRESHOLD_HELP } from '../compare/threshold.ts';

/** --threshold and --mode as bench-change and bisect word them. */
function addJudging(command: Command): Command {
  return command
    .option('--threshold <pct>', THRESHOLD_HELP)
    .addOption(
      new Option(
        '--mode <mode>',
        "which rule decides a label: ratio (each cell relative to its group's raw cell) or absolute",
      )
        .choices(['ratio', 'absolute'])
        .default('ratio'),
    );
}

/**
 * The options of a bench-change run, which is what each bisect step is: the shared run options of its cells'
 * processes, then the judging ones. `processes` words --processes for the command.
 */
export function addChangeRun(command: Command, processes: string): Command {
  return addJudging(addShared(command, ['probe', 'timing', 'jobs', 'start', 'seed'], { processes }));
}
