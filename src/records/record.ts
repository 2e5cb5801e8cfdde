// What a cell process's result file holds beyond its timing, as the run reads it: the work witnesses of its
// untimed call, the effect-size guard and agreement of its exactness check, and its paired record with the
// figures derived from it (what the precision gate judges and results aggregate).
import { pairEstimate } from '../stats/paired.ts';
import { median } from '../stats/summary.ts';

/** What the harness observed in the untimed witness call of one timing process (docs/contracts.md). */
export interface Witnesses {
  /** Calls of the model's final module. */
  forwards: number;
  /** Whether the call's backward filled any parameter's `.grad`. */
  parameter_grads: boolean;
  /** Bytes held by the tensors the call returned. */
  result_bytes: number;
  /** Text subjects: whether the token embedding was given the subject's own token ids (absent for other inputs). */
  tokens?: 'same' | 'other' | 'none';
}

/** The work a contract requires (runners/harness/contracts.json); null: the contract checks nothing (group B operations). */
export type RequiredWork = { forwards: number; parameter_grads: boolean } | null;

/** What one paired process measured, with the figures derived from it. */
export interface PairedProcess {
  /** The process's position in the cell's `samples_ms` (whose list holds the tool's samples of each pair). */
  index: number;
  /** The paired ratio (pairEstimate): tool / baseline, both timed in alternation after the import. */
  ratio: number;
  /** Import tax: median baseline after the import / median baseline before it. */
  tax: number;
  pairs: number;
  /** Raw data, so that compare and history can recompute: the baseline's samples after the import (parallel
   * to the cell's samples_ms of this process), the order of each pair, and the block before the import. */
  seed: number;
  baseline_ms: number[];
  tool_first: boolean[];
  before_ms: number[];
}

/** What a process result holds about pairing (schemas/result.schema.json `paired`). */
export interface PairedRecord {
  baseline: string;
  seed: number;
  unpaired: string | null;
  baseline_ms?: number[];
  baseline_gc_ms?: number[];
  tool_first?: boolean[];
  /** The block before the import; `work`: the baseline's witness call after it (absent in older results). */
  before?: {
    baseline_ms: number[];
    baseline_gc_ms: number[];
    stopped_by: string;
    work?: { witnesses: Witnesses; required: RequiredWork; differs: string[] } | null;
  };
}

/** A process's paired figures from its timing and `paired` record; null when it did not pair. */
export function pairedProcess(
  index: number,
  samples: readonly number[],
  p: PairedRecord | null | undefined,
): PairedProcess | null {
  if (!p || p.unpaired !== null || !p.baseline_ms || !p.before) return null;
  const ratio = pairEstimate(samples, p.baseline_ms);
  const base = p.before.baseline_ms;
  if (ratio === null || base.length === 0 || p.baseline_ms.length === 0) return null;
  const tax = median(p.baseline_ms) / median(base);
  return {
    index,
    ratio,
    tax,
    pairs: Math.min(samples.length, p.baseline_ms.length),
    seed: p.seed,
    baseline_ms: p.baseline_ms,
    tool_first: p.tool_first ?? [],
    before_ms: base,
  };
}

/** Prompts as tokenized and padded (runners/harness/benchgrid_harness/text.py), the same in every process. */
export interface TokensRecord {
  prompts: number;
  lengths: number[];
  padded_to: number;
  padding_side: 'left' | 'right';
  pad_id: number;
  tokenizer: string;
  /** sha256 of the padded int64 token ids. */
  sha256: string;
}

/** How far the reference's write moved the output from the unwritten one (benchgrid_harness/effect.py). */
export interface EffectFigures {
  /** Largest absolute difference; null for generated tokens and where the two cannot be lined up. */
  max_abs_diff: number | null;
  /** The write stays within the exactness tolerance: agreement with the reference proves nothing. */
  vacuous: boolean;
  top1_agreement?: number | null;
  tv_distance?: number | null;
  first_divergence?: number | null;
}

/**
 * The precision control of a reduced-precision subject's cell (benchgrid_harness/precision_control.py): the tool
 * against the reference on the same subject built at float32, untimed, after the samples.
 */
export interface PrecisionControlRecord {
  dtype: 'float32';
  /** The subject's own dtype. */
  from: 'bfloat16' | 'float16';
  /** At float32 and the float32 tolerance; null when the control failed (`error`). */
  verdict: 'bit' | 'close' | 'mismatch' | null;
  max_abs_diff: number | null;
  rtol: number;
  atol: number;
  /** The float32-rounding bound of the reference's output (1e-5 of its largest magnitude). */
  bound: number | null;
  error: string | null;
}

/** A decoder output against the reference's as a user reads it. */
export interface Agreement {
  /** The fraction of positions whose top token (for tokens: whose generated token) is the reference's. */
  top1_agreement?: number | null;
  /** Total-variation distance of the softmax distributions, averaged over positions (logits only). */
  tv_distance?: number | null;
  /** Generated tokens: the index among the new tokens (0: the first) where any sequence first parts; null: none. */
  first_divergence?: number | null;
}

/** What a timing process kept per call (schemas/result.schema.json `memory_growth`, benchgrid_harness/memory.py). */
export interface MemoryGrowthRecord {
  /** The tool's calls between the two readings. */
  calls: number;
  /** Resident set size [before the first sample, after the last]; null where it could not be read. */
  rss_bytes: [number, number] | null;
  /** torch.cuda.memory_allocated at the same two points; null off CUDA. */
  cuda_allocated_bytes: [number, number] | null;
  /** The last sample's result, held at the second reading for the exactness check (subtracted). */
  held_bytes: { rss: number; cuda: number | null };
  /** Per counter: the Theil-Sen slope of the readings after each call, or with under three calls (after - held - before) / calls; null: not read. */
  per_call_bytes: { rss: number | null; cuda: number | null };
}
