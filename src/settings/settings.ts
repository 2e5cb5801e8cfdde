// The effective run settings: one function (runSettings) makes them from a spec's timing settings and the
// command line's flags, as hyperfine's Options::from_cli_arguments does. `run`, `bench-change`, `export`,
// `run --executor slurm`, `ingest` and `plan`'s cost estimate all call it, so an override is applied,
// bounded and recorded in one place. The timing flags come from the protocol table (TIMING_FLAGS): the
// command line registers them from this list (src/cli-options.ts) and runSettings applies them from it.
import type { Protocol, Spec } from '../spec/types.ts';
import { PROTOCOL_TABLE } from '../protocol-table.ts';

/** A device a run measures on. */
export type Device = 'cpu' | 'cuda';

/** How a run orders its processes: the kind, and the seed of the interleaved schedule's shuffles. */
export interface ScheduleSetting {
  kind: Protocol['schedule'];
  seed: number;
}

/**
 * The command line's overrides of a spec's settings, recorded as given in the journal header, the bundle
 * manifest (schemas/journal.schema.json, schemas/bundle.schema.json) and the results' `run.overrides`.
 */
export interface Overrides {
  processes?: number;
  samples?: number;
  warmups?: number;
  memory_runs?: number;
  aa_pairs?: number;
  controls?: number;
  /** `--precision`: the target as a fraction, or null (`--precision off`) for none. */
  precision?: number | null;
  device?: Device;
}

/** Every flag that changes the run settings: the overrides, and the schedule's kind and seed. */
export interface SettingFlags extends Overrides {
  schedule?: Protocol['schedule'];
  seed?: number;
}

/** The settings a run measures with, after the flags. */
export interface RunSettings {
  device: Device;
  /** The spec's timing settings with the overrides applied. */
  protocol: Protocol;
  schedule: ScheduleSetting;
  /** The overrides that were given (only those), as they are recorded. */
  overrides: Overrides;
}

/**
 * A timing setting the command line may override: the flag, the protocol key, its bounds (docs/security.md).
 * The parsed value is stored under the protocol key itself (`memory_runs`, not commander's `memoryRuns`),
 * so the flags, the recorded overrides and the protocol share one spelling.
 */
export interface TimingFlag {
  key: 'processes' | 'samples' | 'warmups' | 'memory_runs' | 'aa_pairs' | 'controls' | 'precision';
  flag: string;
  /** The smallest value accepted; the largest is the spec schema's maximum for the same key. */
  min: number;
  max: number;
  help: string;
  /** A percentage (`--precision 2` is 0.02, `off` is null) instead of an integer. */
  percent?: boolean;
}

/** The timing overrides, in the order `--help` lists them: the protocol table's keys that have a flag. */
export const TIMING_FLAGS: readonly TimingFlag[] = PROTOCOL_TABLE.keys
  .filter((r) => r.flag !== undefined)
  .sort((a, b) => a.flag!.rank - b.flag!.rank)
  .map((r) => ({
    key: r.key as TimingFlag['key'],
    flag: r.flag!.name,
    // A percentage is bounded as a percentage (percentOrOff); a count by the key's own bounds.
    min: r.flag!.percent ? 0 : (r.minimum ?? 0),
    max: r.flag!.percent ? 100 : r.maximum!,
    help: r.flag!.help,
    ...(r.flag!.percent ? { percent: true } : {}),
  }));

/**
 * The settings of a run from its spec and flags. `seed` gives the schedule's seed when no --seed was given
 * (a fresh one for a new run, the spec digest's for an export). A resumed run or an ingested bundle passes
 * the flags it recorded, so it measures with the settings it started with.
 */
export function runSettings(spec: Spec, flags: SettingFlags, seed: () => number): RunSettings {
  const protocol: Protocol = { ...spec.protocol };
  const overrides: Overrides = {};
  for (const { key } of TIMING_FLAGS) {
    const value = flags[key];
    if (value === undefined) continue;
    (protocol as unknown as Record<string, number | null>)[key] = value;
    (overrides as Record<string, number | null>)[key] = value;
  }
  // Fewer samples than the spec's minimum: the minimum follows, as the harness requires min_samples <= samples.
  protocol.min_samples = Math.min(protocol.min_samples, protocol.samples);
  if (flags.device !== undefined) overrides.device = flags.device;
  return {
    device: flags.device ?? spec.device,
    protocol,
    schedule: { kind: flags.schedule ?? spec.protocol.schedule, seed: flags.seed ?? seed() },
    overrides,
  };
}

/** The request settings TypeScript names among those the protocol table hands the harness as they are. */
export type HarnessSettings = Pick<Protocol, 'warmups' | 'samples' | 'min_samples' | 'threads' | 'precision'>;

/**
 * The protocol's values of the keys the protocol table marks `harness`, under the same keys: the request's
 * settings the harness reads as the spec (after the overrides) gives them. A passthrough key (one only the
 * harness reads) is among them without TypeScript naming it.
 */
export function harnessSettings(protocol: Protocol): HarnessSettings {
  const values = protocol as unknown as Record<string, unknown>;
  return Object.fromEntries(
    PROTOCOL_TABLE.keys.filter((r) => r.harness).map((r) => [r.key, values[r.key]]),
  ) as unknown as HarnessSettings;
}

/** The flags a run recorded (journal header or bundle manifest), to rebuild its settings with runSettings. */
export function recordedFlags(overrides: Overrides, schedule: ScheduleSetting | undefined): SettingFlags {
  // Journals and bundles written before the interleaved schedule resume in the order they started with.
  const s = schedule ?? { kind: 'sequential', seed: 0 };
  return { ...overrides, schedule: s.kind, seed: s.seed };
}
