// A finished cell process as data: built in one place from what the process did and what it wrote.
import fs from 'node:fs';
import { validatorFor } from '../spec/schema.ts';
import { readJsonFile } from '../util/json-file.ts';

/** A result file larger than this is not one (samples are bounded by protocol.samples, at most 100,000 per process). */
const MAX_RESULT_BYTES = 256 * 1024 * 1024;
import type {
  Agreement,
  EffectFigures,
  MemoryGrowthRecord,
  PairedRecord,
  PrecisionControlRecord,
  RequiredWork,
  TokensRecord,
  Witnesses,
} from './record.ts';

/** Everything known about one finished process. */
export type Outcome =
  | { kind: 'result'; result: ProcessResult }
  | { kind: 'failed'; status: 'error'; reason: string; tail: string };

/** A result file that passed schemas/result.schema.json. */
/** Cores other work kept busy and cores stolen during a process's timed phase, its wall time, the machine's CPUs. */
export interface ProcessLoad {
  others_busy: number;
  steal: number;
  seconds: number;
  cpus: number | null;
}

export interface ProcessResult {
  protocol: number;
  cell_id: string;
  process_index: number;
  mode: 'time' | 'memory';
  status: 'ok' | 'unsupported' | 'error';
  reason: string | null;
  error: { type: string; message: string; traceback_tail: string } | null;
  timing: {
    timer: string;
    sync: string;
    warmups: number;
    samples_ms: number[];
    /** The timed collection after each sample (absent in results written before the GC policy). */
    gc?: string;
    gc_ms?: number[];
    stopped_by: 'samples' | 'budget' | 'precision';
    /** What the rest of the machine did during the timed phase (benchgrid_harness/machine.py); absent in older results. */
    load?: ProcessLoad | null;
    /** What the process kept per call between its warm-ups and its last sample; absent in older results. */
    memory_growth?: MemoryGrowthRecord;
  } | null;
  exact: {
    verdict: 'bit' | 'close' | 'mismatch' | 'vacuous' | 'degraded' | null;
    max_abs_diff: number | null;
    reference: string | null;
    rtol: number;
    atol: number;
    /** The effect-size guard of a writing contract, and a decoder output's task-level agreement (absent in older results). */
    effect?: EffectFigures | null;
    agreement?: Agreement | null;
    /** A reduced-precision subject's control at float32 (absent where it did not run, and in older results). */
    precision_control?: PrecisionControlRecord | null;
  } | null;
  memory: { peak_rss_bytes: number; cuda_peak_allocated_bytes: number | null } | null;
  versions: {
    python: string;
    torch: string | null;
    torchvision: string | null;
    numpy: string | null;
    library: { name: string; version: string | null } | null;
  };
  environment: Record<string, unknown>;
  phases_s: Record<string, number>;
  /** Work witnesses of the untimed witness call (time mode, from protocol-1 harnesses that record them). */
  work?: { witnesses: Witnesses; required: RequiredWork; differs: string[] } | null;
  notes?: string[];
  /** Paired timing (docs/protocol.md, Pairing): the baseline's samples; absent or null when the process did not pair. */
  paired?: PairedRecord | null;
  /** What the process built (absent from older harnesses, null before the build): dtype and weights. */
  subject?: {
    dtype: string;
    weights: { kind: 'state_dict' | 'pretrained' | 'hub'; source: string; sha256: string } | null;
    tokens?: TokensRecord;
  } | null;
}

/** What the orchestrator saw of the process itself. */
export interface Exit {
  exitCode: number | undefined;
  signal: string | undefined;
  timedOut: boolean;
  timeoutS: number;
  spawnError: string | undefined;
  stderrTail: string;
  stdoutTail: string;
}

/** An `Exit` as JSON carries it (the launcher's reply, the bundle driver's journal): null for absent. */
export type ExitRecord = { [K in keyof Exit]: Exit[K] | null };

/** The `Exit` of an `ExitRecord` (null -> undefined; not timed out, no time limit, empty tails by default). */
export function exitOf(e: ExitRecord): Exit {
  return {
    exitCode: e.exitCode ?? undefined,
    signal: e.signal ?? undefined,
    timedOut: e.timedOut === true,
    timeoutS: e.timeoutS ?? 0,
    spawnError: e.spawnError ?? undefined,
    stderrTail: e.stderrTail ?? '',
    stdoutTail: e.stdoutTail ?? '',
  };
}

/**
 * Classifies a finished process. Order matters: a time-out or a spawn failure wins over whatever file
 * was (or was not) left behind; then a result file must be JSON and pass the schema, and must be for
 * this cell and process.
 */
export function outcomeOf(
  exit: Exit,
  resultFile: string,
  expect: { cell: string; index: number; mode: string },
): Outcome {
  const tail = tailOf(exit);
  const fail = (reason: string): Outcome => ({ kind: 'failed', status: 'error', reason, tail });
  if (exit.spawnError) return fail(`could not start the process: ${exit.spawnError}`);
  if (exit.timedOut) return fail(`timed out after ${exit.timeoutS} s (the process tree was killed)`);
  if (exit.signal) return fail(`the process was killed by ${exit.signal} before writing a result`);
  if (!fs.existsSync(resultFile)) return fail(`the process exited with code ${exit.exitCode} without writing a result`);
  let data: unknown;
  try {
    data = readJsonFile(resultFile, MAX_RESULT_BYTES, 'result file');
  } catch (error) {
    const why = (error as Error).message
      .split('\n')[0]
      .replace(`${resultFile}: `, '')
      .replace(/^not a result file: /, '');
    return fail(
      `the result file ${/invalid JSON|nested deeper|appears twice/.test(why) ? 'is not JSON' : 'cannot be read'} (${why})`,
    );
  }
  const validate = validatorFor('result.schema.json');
  if (!validate(data)) {
    const first = validate.errors?.[0];
    return fail(
      `the result file does not match schemas/result.schema.json (${first?.instancePath || '/'} ${first?.message ?? ''}; ${validate.errors?.length ?? 0} problem(s))`,
    );
  }
  const result = data as ProcessResult;
  if (result.cell_id !== expect.cell || result.process_index !== expect.index || result.mode !== expect.mode) {
    return fail(
      `the result file is for ${result.cell_id} process ${result.process_index} (${result.mode}), not this process`,
    );
  }
  if (exit.exitCode !== 0) return fail(`the process wrote a result but exited with code ${exit.exitCode}`);
  return { kind: 'result', result };
}

function tailOf(exit: Exit): string {
  const parts = [];
  if (exit.stderrTail.trim()) parts.push(exit.stderrTail.trimEnd());
  else if (exit.stdoutTail.trim()) parts.push(exit.stdoutTail.trimEnd());
  return parts.join('\n');
}
