// The options several commands share (run, bench-change, export, ingest, plan), each declared once and
// registered by one helper, as asv's common_args does: the same flag cannot drift between two commands.
// The timing overrides come from the run settings' own list (src/settings/settings.ts), so a new one
// is declared there and nowhere here.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { SCHEDULE_KINDS } from './run/schedule.ts';
import { TIMING_FLAGS } from './settings/settings.ts';

const SCHEDULE_HELP =
  "order of the processes: rounds of every cell shuffled with a recorded seed, or each cell's processes together (default: the spec's protocol.schedule, else interleaved)";

/**
 * An option whose value commander stores under `key` instead of the camel-cased flag: `--memory-runs`
 * lands in `opts.memory_runs`, the protocol's and the recorded overrides' spelling (commander reads an
 * option's attribute name only through attributeName()).
 */
class KeyedOption extends Option {
  readonly storedAs: string;

  constructor(flags: string, description: string, key: string) {
    super(flags, description);
    this.storedAs = key;
  }

  override attributeName(): string {
    return this.storedAs;
  }
}

/** Every shared option, by name; a name may stand for several options (timing). */
const SHARED = {
  only: () => [
    new Option(
      '--only <globs>',
      "only cells whose id matches one of these comma-separated globs, e.g. 'A/*/hooks/*' or 'A/*/{raw,hooks}/*' (docs/spec.md#selecting-cells)",
    ),
  ],
  device: () => [new Option('--device <device>', "override the spec's device").choices(['cpu', 'cuda'])],
  timing: () =>
    TIMING_FLAGS.map((f) =>
      new KeyedOption(f.flag, f.help, f.key).argParser(
        f.percent ? percentOrOff(f.flag.split(' ')[0]) : boundedInt(f.flag.split(' ')[0], f.min, f.max),
      ),
    ),
  schedule: () => [new Option('--schedule <kind>', SCHEDULE_HELP).choices(SCHEDULE_KINDS)],
  seed: () => [
    new Option(
      '--seed <n>',
      "seed of the interleaved schedule's shuffles (default: a fresh one, recorded in the results)",
    ).argParser(seedInt),
  ],
  jobs: () => [
    new Option('--jobs <n>', 'cell processes at once, each pinned to its own cores (default 1)').argParser(
      boundedInt('--jobs', 1, 1024),
    ),
  ],
  start: () => [
    new Option('--start <mode>', 'how cell processes start: cold interpreters, or forks of a clean parent').choices([
      'cold',
      'fork',
    ]),
  ],
  probe: () => [
    new Option(
      '--no-probe',
      'skip the subject probe at the start (each subject built once to check that its sites exist)',
    ),
  ],
} satisfies Record<string, () => Option[]>;

/** A shared option's name. */
export type SharedOption = keyof typeof SHARED;

/**
 * Registers the named shared options on `command`, in order; `help` rewords an option for this command,
 * by its attribute name (e.g. `{ processes: 'processes per cell and side' }`).
 */
export function addShared(command: Command, names: SharedOption[], help: Record<string, string> = {}): Command {
  for (const name of names) {
    for (const option of SHARED[name]()) {
      option.description = help[option.attributeName()] ?? option.description;
      command.addOption(option);
    }
  }
  return command;
}

/**
 * Registers `--format` with its choices (the first is the default) and `--json`, the same as `--format json`
 * (src/cli-format.ts), with this command's wording.
 */
export function addFormat(command: Command, formats: string[], help: string, json = 'same as --format json'): Command {
  return command
    .addOption(new Option('--format <format>', help).choices(formats).default(formats[0]))
    .option('--json', json);
}

/** A commander parser for integer options from `min` up to a documented maximum (docs/security.md). */
export function boundedInt(name: string, min: number, max: number) {
  return (value: string) => {
    // Number('') is 0: an empty value is refused, not read as zero.
    const n = value.trim() === '' ? Number.NaN : Number(value);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(
        `${name} must be a ${min === 0 ? 'non-negative' : 'positive'} integer (got '${value}').`,
      );
    if (n > max) throw new InvalidArgumentError(`${name} may be at most ${max} (got '${value}').`);
    return n;
  };
}

/** A commander parser for a percentage option that may be turned off: `2` or `2%` is 0.02, `off` is null. */
export function percentOrOff(name: string) {
  return (value: string): number | null => {
    if (value.trim() === 'off') return null;
    const n = value.trim() === '' ? Number.NaN : Number(value.trim().replace(/%$/, ''));
    if (!Number.isFinite(n) || !(n > 0) || !(n < 100))
      throw new InvalidArgumentError(
        `${name} must be a percentage above 0 and below 100, such as 2 or 0.5, or 'off' (got '${value}').`,
      );
    return n / 100;
  };
}

/** A commander parser for --seed: the schedule's PRNG takes a 32-bit unsigned integer. */
function seedInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n >= 2 ** 32)
    throw new InvalidArgumentError(`--seed must be an integer from 0 to 4294967295 (got '${value}').`);
  return n;
}

/** A repeatable option's parser: every value, in order. */
export function repeatable(value: string, all: string[] = []): string[] {
  return [...all, value];
}
