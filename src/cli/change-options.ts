// The judging options bench-change and bisect share with compare's wording: threshold, mode, fail-on-slower.
import { Option, type Command } from 'commander';
import { THRESHOLD_HELP } from '../compare/threshold.ts';

/** --threshold and --mode as bench-change and bisect word them. */
export function addJudging(command: Command): Command {
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
