// The results model: what a results file holds once loaded (benchgrid's own files and seed-layout files alike).
import type { PairedFigures } from './paired.ts';
import type { ControlFigures, ImportTax } from './control.ts';
import type { RequiredWork, Witnesses } from '../records/record.ts';
import type { MemoryGrowth } from './memory-growth.ts';
import type { Agreement, EffectFigures } from './effect.ts';
import type { PrecisionControl } from './precision-control.ts';

/** Current results format version; files without one are the seed layout (version 0). */
export const RESULTS_FORMAT = 1;

/**
 * An exactness verdict against the group's reference tool; null when there is nothing to compare. `vacuous`:
 * the values agree, but the contract's write does not move the output beyond the tolerance, so the agreement
 * proves nothing (src/results/effect.ts). `degraded`: on a subject of reduced precision the tool differs from the
 * reference beyond float32 rounding, and agrees with it at float32: it differs only by precision
 * (src/results/precision-control.ts).
 */
export type Verdict = 'bit' | 'close' | 'mismatch' | 'vacuous' | 'degraded' | null;

/** Statistics of one process's raw samples (milliseconds). */
export interface ProcessStats {
  index: number;
  median_ms: number;
  min_ms: number;
  max_ms: number;
  /** Interquartile range (q3 - q1, linear interpolation). */
  iqr_ms: number;
  n: number;
  /** Why sampling stopped: the sample count, the cell's time budget, or the median precise enough. */
  stopped_by: 'samples' | 'budget' | 'precision';
  /** Median of the timed collections that followed the samples (ms); null when not recorded. */
  gc_median_ms?: number | null;
  /** Seconds spent in each phase of the process (startup, imports, build, reference, prepare, warmup, timed, check). */
  phases_s: Record<string, number>;
  /** Wall time from spawn to result, seen by the orchestrator. */
  wall_s: number;
  /** CPU cores the process was pinned to, when it was. */
  cpus: number[] | null;
  /** How the process was started: a cold interpreter or a fork of a clean parent. */
  start: 'cold' | 'fork';
  /** For a baseline cell timed in its row's paired processes: the cell whose process this was. */
  from?: string;
}

/** Peak memory of the memory processes, one value per process. */
export interface MemoryStats {
  peak_rss_bytes: number[];
  cuda_peak_allocated_bytes: (number | null)[];
}

/** A cell's work: the contract's requirement, the witnesses per timing process, and the differences in words. */
export interface CellWork {
  /** null: the contract checks nothing (group B operations). */
  required: RequiredWork;
  witnesses: Witnesses[];
  /** Empty when the work is the contract's: else e.g. "stops at the site", "no parameter gradients". */
  differs: string[];
}

/** One cell's results. */
export interface CellResult {
  id: string;
  group: string;
  contract: string;
  tool: string;
  subject: string;
  /** ok: measured; unsupported: not run (declared reason or found at run time); error: failed. */
  status: 'ok' | 'unsupported' | 'error';
  /** Distinct statuses of the cell's processes (the seed layout's `statuses`). */
  statuses: string[];
  reason: string | null;
  /** Median of the per-process medians. */
  median_ms: number | null;
  /** Smallest and largest per-process median. */
  min_ms: number | null;
  max_ms: number | null;
  processes: number | null;
  samples_per_process: number[] | null;
  /** undefined: the file does not say (the seed layout omits it for the reference); null: nothing to compare. */
  exact: Verdict | undefined;
  max_abs_diff: number | null;
  /** A writing contract's effect-size guard: how far the reference's write moves the output; absent or null otherwise. */
  effect?: EffectFigures | null;
  /** A decoder output's top-1 agreement, TV distance, or where its generated tokens part; absent or null otherwise. */
  agreement?: Agreement | null;
  /** A reduced-precision subject's control at float32 (the float32 verdict and max abs diff); absent where none ran. */
  precision_control?: PrecisionControl | null;
  /** Raw samples per process (ms); null when the file has none (the seed layout). */
  samples_ms: number[][] | null;
  /** The timed garbage collection after each sample, per process (ms), parallel to samples_ms; null when not recorded. */
  gc_ms?: number[][] | null;
  /** Median of the per-process gc medians (ms): the cost of the garbage one call leaves; null when not recorded. */
  gc_median_ms?: number | null;
  per_process: ProcessStats[] | null;
  /** Why the cell ran no more processes: all `processes`, the budget, or its median precise enough. */
  stopped_by?: 'precision' | 'processes' | 'budget' | 'unreachable' | null;
  /** Relative half-width of the 95% interval of the cell's median, from its process medians (src/stats/spread.ts). */
  precision_half_width?: number | null;
  memory: MemoryStats | null;
  /**
   * What the timing processes kept per call between their warm-ups and their last sample, and whether that
   * is growth (src/results/memory-growth.ts); absent or null when not recorded (older results, the seed layout).
   */
  memory_growth?: MemoryGrowth | null;
  /** Version of the tool's library, when it has one; for a source build, its own version with the revision (`2.36.1+git.1a2b3c4`). */
  tool_version: string | null;
  /** Where a tool built from source came from (`run --tool-source`, bench-change); absent for a release. */
  tool_source?: CellSource | null;
  /** Interpreter and torch the cell's processes ran with (a tool in its own environment may differ from the run's). */
  runtime?: {
    environment: string | null;
    python: string | null;
    torch: string | null;
    torchvision: string | null;
  } | null;
  /** Work witnesses; absent or null when the file has none (the seed layout, older runs). */
  work?: CellWork | null;
  /** Sentences the adapter gave for this cell (ctx.note), e.g. why it does more work than asked. */
  notes?: string[];
  /**
   * The tool against its baseline (`raw`) timed in alternation in the same processes (docs/protocol.md,
   * Pairing): ratio, 95% interval, pairs, and each process's raw data. Absent or null when unpaired.
   */
  paired?: PairedFigures | null;
  /**
   * The import tax: the baseline after the tool's import over before it, judged against the row's control
   * (src/results/control.ts), with its 95% interval; absent or null when unpaired.
   */
  import_tax?: ImportTax | null;
  /** A baseline cell's control processes, per environment (docs/protocol.md, "The control"); absent: none ran. */
  control?: ControlFigures[] | null;
  /** Why a tool cell has no paired figures (pairing off, no raw in its group, ...); null when paired or not a tool cell. */
  unpaired?: string | null;
  /** A baseline cell timed by its row's paired processes before their tools' imports: those cells. */
  baseline_from?: string[] | null;
  /** Error details of a failed cell: exception type, stderr tail. */
  error: { type: string | null; message: string; tail: string | null } | null;
}

/** The source a cell's tool was built from. */
export interface CellSource {
  kind: 'tree' | 'git';
  /** The directory or `git:REPO@REV` it was built from, as the run resolved it. */
  source: string;
  commit: string | null;
  /** The commit's date (ISO 8601): orders builds of one release on the history's version axis. */
  committed: string | null;
  dirty: boolean;
  digest: string;
  /** The version string the build itself reported, before the revision was added. */
  version: string | null;
}

/** A/A noise of a subject's reference cell, measured in alternating fresh processes. */
export interface AANoise {
  pairs: number;
  medians_ms: number[];
  max_rel_diff: number | null;
  cell: string | null;
  /**
   * The same pairs of processes judged on their paired ratios to raw (each process timed the reference
   * tool against the baseline): ratios pair by pair and their largest relative difference. Absent or null
   * when the processes did not pair (older files, the seed layout).
   */
  paired?: { pairs: number; ratios: number[]; max_rel_diff: number | null } | null;
}

/** Per-subject metadata: environment of the processes, versions, protocol, A/A noise, the model built. */
export interface SubjectMeta {
  environment: Record<string, unknown>;
  versions: Record<string, string | null>;
  protocol: Record<string, unknown>;
  aa_noise: AANoise | null;
  /** What the processes built (absent in files written before it): the dtype and the weights they loaded. */
  model?: SubjectModel | null;
}

/** A subject's model as its processes built it. */
export interface SubjectModel {
  builder: string;
  name: string | null;
  dtype: string;
  /** Where the weights came from and the sha256 of what was loaded; null: random, from a seeded generator. */
  weights: { kind: string; source: string; sha256: string } | null;
  /** Text inputs as the processes tokenized them; absent for other inputs. */
  tokens?: TokensRecord;
}

/** Prompts as tokenized and padded: the run's record of them (src/records/record.ts). */
export type { TokensRecord } from '../records/record.ts';
import type { TokensRecord } from '../records/record.ts';

/**
 * The origin of a results file in the seed layout: the results layout of benchgrid's predecessor (format
 * version 0, upgraded when loaded). 'seed' is its spelling in the files and the JSON benchgrid writes.
 */
export const SEED_LAYOUT = 'seed';

/** Where a results file came from: a benchgrid run, or a seed-layout file. */
export type ResultsOrigin = 'benchgrid' | typeof SEED_LAYOUT;

/** A loaded results file. */
export interface Results {
  format_version: number;
  /** Where it came from: a benchgrid run, or an upgraded seed-layout file. */
  origin: ResultsOrigin;
  spec: { name: string; title: string; digest: string | null; device: string | null } | null;
  partial: boolean;
  measured_on: string;
  host: Record<string, unknown>;
  versions: Record<string, string | null>;
  harness: string;
  subjects: Record<string, { meta: SubjectMeta | null; not_measured: string[] }>;
  cells: CellResult[];
  /** The seed's page rows, when the file carries them. */
  page_rows: { section: string; text: string }[] | null;
  /** How the run was made: overrides, start mode, jobs; null for the seed layout. */
  run: Record<string, unknown> | null;
}
