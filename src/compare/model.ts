// The comparison model: what `benchgrid compare` computes from two results files. The table and
// markdown writers render it; `--format json` prints it as it is.
import type { CellResult, ResultsOrigin, Verdict } from '../results/model.ts';

/** Version of the JSON comparison format. */
export const COMPARISON_FORMAT = 1;

/** A cell's speed label. */
export type SpeedLabel = 'faster' | 'slower' | 'within_noise' | 'unavailable';

/**
 * Which rule produced the label: the bootstrap rule on raw samples, the range rule for files without
 * raw samples (the seed layout), or none (no label could be given).
 */
export type SpeedBasis = 'bootstrap' | 'range' | 'none';

/** The after/before ratio interval a label was judged on. */
export interface Interval {
  low: number;
  high: number;
  /** bootstrap95: 95% hierarchical bootstrap CI; range: [after min / before max, after max / before min]. */
  kind: 'bootstrap95' | 'range';
}

/** A cell's speed comparison. Ratios are after / before: above 1 is slower. */
export interface SpeedComparison {
  label: SpeedLabel;
  basis: SpeedBasis;
  /** One sentence: why this label. */
  why: string;
  before_ms: number | null;
  after_ms: number | null;
  ratio: number | null;
  interval: Interval | null;
  /** The noise threshold used for this cell, as a fraction (0.02 is 2%). */
  threshold: number;
  /** Student's t-test on log process medians (the label's significance test), when process medians are known. */
  process_test: { t: number; df: number; p: number } | null;
  /**
   * after/before of the geometric means of the process medians: the change the process-level t-test
   * tests, and what a tool verdict averages (src/compare/tools.ts). Null without process medians.
   */
  geometric_ratio?: number | null;
  /** Mann-Whitney U on all raw samples (reported, not used by the label: it ignores process clustering). */
  mann_whitney: { u: number; p: number; method: 'exact' | 'asymptotic' } | null;
  /** In ratio mode, how each side's ratio was obtained: paired in its own processes, or unpaired (to the baseline cell). */
  paired?: 'paired' | 'unpaired' | 'paired before, unpaired after' | 'unpaired before, paired after';
  /**
   * In ratio mode across two runs: the run-to-run component added to the interval and the test (sd of the
   * change on the log scale, both runs' components together; docs/compare.md); absent or 0: none.
   */
  between_run?: number;
  /** Which mode decided the label (docs/compare.md); absent on label-less comparisons built before a mode was tried. */
  decided_by?: CompareMode;
  /** The other mode's verdict, reported beside the deciding one; null when it could not be computed. */
  other?: OtherVerdict | null;
}

/**
 * ratio: the change of after/before of the cell's ratio to its group's baseline cell (`raw`) in the same
 * run; absolute: the change of the cell's own medians, its threshold widened by the measured run shift.
 */
export type CompareMode = 'ratio' | 'absolute';

/** The verdict of the mode that did not decide the label. */
export interface OtherVerdict {
  mode: CompareMode;
  label: SpeedLabel;
  ratio: number | null;
  interval: Interval | null;
  threshold: number;
  why: string;
}

/** One side of a cell, as the comparison shows it. */
export interface CellSide {
  status: CellResult['status'];
  reason: string | null;
  exact: Verdict;
  median_ms: number | null;
  processes: number | null;
  raw_samples: boolean;
  /** Work differences, another torch, adapter notes (src/results/annotations.ts); absent when there are none. */
  annotations?: string[];
}

/** A cell matched by id across the two files. */
export interface CellComparison {
  id: string;
  group: string;
  contract: string;
  tool: string;
  subject: string;
  before: CellSide | null;
  after: CellSide | null;
  speed: SpeedComparison;
  /** Set when the status or the reason changed. */
  status_changed: boolean;
  /** Set when the exactness verdict changed; worse when it went down bit -> close -> degraded -> vacuous -> mismatch. */
  exactness: { before: Verdict; after: Verdict; worse: boolean } | null;
}

/** One environment fact that differs between the two files. */
export interface EnvDifference {
  key: string;
  before: string | null;
  after: string | null;
  /** Subjects it differs for; null when it is a file-wide fact or differs for every common subject. */
  subjects: string[] | null;
  /** Blocking differences make results incomparable (`--strict-env` refuses); the others are notes. */
  blocking: boolean;
  /** Which files record the fact; a fact recorded on one side only is listed but never blocks. */
  recorded: 'both' | 'before' | 'after';
}

/** The noise threshold of one subject and where it came from. */
export interface SubjectNoise {
  subject: string;
  threshold: number;
  option: number;
  aa_before: { max_rel_diff: number; pairs: number } | null;
  aa_after: { max_rel_diff: number; pairs: number } | null;
  /** The same A/A processes judged on their paired ratios to raw; when both runs have it, it sets ratio mode's threshold. */
  aa_paired_before?: { max_rel_diff: number; pairs: number } | null;
  aa_paired_after?: { max_rel_diff: number; pairs: number } | null;
  /**
   * The run-level shift: after/before of the subject's baseline cell, when both runs measured it in the
   * same environment (no blocking difference); the absolute mode's threshold is `threshold + |shift - 1|`.
   */
  run_shift?: { cell: string; ratio: number } | null;
  /** The absolute mode's threshold (the noise threshold widened by the run shift). */
  absolute_threshold?: number;
}

/**
 * A tool's verdict over its cells of one subject (src/compare/tools.ts): the geometric mean of the cells'
 * ratios in the mode that decided them, with a t interval over cells.
 */
export interface ToolComparison {
  subject: string;
  tool: string;
  mode: CompareMode;
  /** The cells the verdict is over: those labelled (not `unavailable`) in `mode`. */
  cells: string[];
  label: SpeedLabel;
  ratio: number | null;
  interval: { low: number; high: number } | null;
  threshold: number;
  /** One-sample t-test of the cells' log ratios; `moderated` when the comparison's pool informed the variance. */
  test: { t: number; df: number; p: number; moderated: boolean } | null;
  why: string;
}

/** A results file as the comparison names it. */
export interface RunSummary {
  file: string;
  origin: ResultsOrigin;
  measured_on: string;
  spec: string | null;
  partial: boolean;
  raw_samples: boolean;
}

/** The settings the comparison was computed with. */
export interface CompareSettings {
  /** Which mode decides a label when both can (the default, ratio, falls back on absolute where it cannot). */
  mode: CompareMode;
  threshold: number;
  confidence: number;
  alpha: number;
  resamples: number;
  seed: number;
  min_processes: number;
  fail_on_slower: number | null;
  /**
   * Both sides come from one interleaved run (bench-change): what moves a ratio from one run to the next is
   * common to them and divides out, so no run-to-run component is added (docs/compare.md). Absent: false.
   */
  same_run?: boolean;
}

/** Everything `benchgrid compare` says about two results files. */
export interface Comparison {
  format: 'benchgrid-comparison';
  version: typeof COMPARISON_FORMAT;
  /** First, so that every output starts with what makes the runs hard to compare. */
  environment: { differences: EnvDifference[]; blocking: number };
  before: RunSummary;
  after: RunSummary;
  settings: CompareSettings;
  noise: SubjectNoise[];
  /** One verdict per tool and subject; absent in comparisons written before tool verdicts existed. */
  tools?: ToolComparison[];
  summary: {
    cells: number;
    faster: number;
    slower: number;
    within_noise: number;
    unavailable: number;
    range_rule: number;
    /** Labels decided by each mode. */
    decided_by_ratio?: number;
    decided_by_absolute?: number;
    status_changes: number;
    exactness_changes: number;
    exactness_worse: number;
    only_before: number;
    only_after: number;
    /** Tools with a verdict (not `unavailable`), and those labelled faster / slower as a whole (see `tools`). */
    tools_judged?: number;
    tools_faster?: number;
    tools_slower?: number;
    /** Cells that fail `--fail-on-slower`; null without the option. */
    failing: string[] | null;
    /** Tools (`tool (subject)`) whose verdict fails `--fail-on-slower`; null without the option. */
    failing_tools?: string[] | null;
  };
  cells: CellComparison[];
}
