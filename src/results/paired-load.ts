// Reading a results file's paired fields (docs/protocol.md, "Pairing"): every value type-checked, as the
// rest of the loader does (src/results/fields.ts); files without them (older runs, the seed layout) load unpaired.
import { UserError } from '../errors.ts';
import {
  bad,
  boundedList,
  child,
  count,
  list,
  MAX_PROCESSES,
  MAX_SAMPLES,
  nonNegative,
  optNonNegative,
  optText,
  record,
  text,
  time,
  type At,
} from './fields.ts';
import type { ControlFigures, ImportTax } from './control.ts';
import type { CellResult } from './model.ts';
import type { PairedFigures, PairedProcess } from './paired.ts';
import type { RatioCI } from '../stats/paired.ts';

/** Most pairs a cell can have: every sample of every process paired. */
const MAX_PAIRS = MAX_PROCESSES * MAX_SAMPLES;

/** A ratio of two times: positive and finite (zero, negative or 1e400 would make every x raw infinite or NaN). */
export function ratioValue(v: unknown, at: At): number {
  if (typeof v !== 'number' || !(v > 0 && v < Infinity)) throw bad(at, 'a positive finite ratio', v);
  return v;
}

/**
 * A ratio with its interval: the ratio positive and finite, the interval two positive finite numbers
 * with low <= ratio <= high. The one exception is the writer's own "no interval" of a single process,
 * [0, null] (JSON writes Infinity as null), which is read back as [0, Infinity].
 */
function ratioCI(v: unknown, at: At): RatioCI {
  const r = record(v, at);
  const ratio = ratioValue(r.ratio, child(at, 'ratio'));
  const ciAt = child(at, 'ci95');
  const ci = list(r.ci95, ciAt);
  if (ci.length === 2 && ci[0] === 0 && ci[1] === null) return { ratio, ci95: [0, Infinity] };
  if (ci.length !== 2) throw bad(ciAt, 'two numbers [low, high]', r.ci95);
  const lo = ratioValue(ci[0], child(ciAt, 0));
  const hi = ratioValue(ci[1], child(ciAt, 1));
  if (!(lo <= ratio && ratio <= hi)) {
    throw new UserError(
      `${at.file}: ${at.path}: expected a ratio inside its ci95 [low, high] (got ratio ${ratio}, ci95 [${lo}, ${hi}]). Give a results file benchgrid wrote.`,
    );
  }
  return { ratio, ci95: [lo, hi] };
}

/** A list of at most a process's samples of times. */
function times(v: unknown, at: At): number[] {
  return boundedList(v, at, MAX_SAMPLES, 'samples').map((x, i) => time(x, child(at, i)));
}

function flags(v: unknown, at: At): boolean[] {
  return boundedList(v, at, MAX_SAMPLES, 'samples').map((x, i) => {
    if (typeof x !== 'boolean') throw new UserError(`${at.file}: ${child(at, i).path}: expected true or false.`);
    return x;
  });
}

function processOf(v: unknown, at: At): PairedProcess {
  const p = record(v, at);
  const f = (k: string) => child(at, k);
  return {
    index: count(p.index, f('index'), MAX_PROCESSES),
    ratio: ratioValue(p.ratio, f('ratio')),
    tax: ratioValue(p.tax, f('tax')),
    pairs: count(p.pairs, f('pairs'), MAX_SAMPLES),
    seed: count(p.seed, f('seed'), Number.MAX_SAFE_INTEGER),
    baseline_ms: times(p.baseline_ms, f('baseline_ms')),
    tool_first: flags(p.tool_first, f('tool_first')),
    before_ms: times(p.before_ms, f('before_ms')),
  };
}

/**
 * Degrees of freedom of an interval: 0 where there is none (one process: its ci95 is unbounded), positive,
 * or null for infinitely many (JSON writes Infinity as null); absent stays absent.
 */
function dfOf(p: Record<string, unknown>, at: At): { df?: number } {
  if (p.df === undefined) return {};
  if (p.df === null) return { df: Infinity };
  if (typeof p.df !== 'number' || !(p.df >= 0) || !Number.isFinite(p.df))
    throw bad(child(at, 'df'), 'degrees of freedom of 0 or more (or null for infinitely many)', p.df);
  return { df: p.df };
}

function publishedOf(v: unknown, at: At): PairedFigures['published'] {
  const p = record(v, at);
  const tax = p.tax === null || p.tax === undefined ? null : ratioValue(p.tax, child(at, 'tax'));
  const between =
    p.between_run === undefined ? {} : { between_run: nonNegative(p.between_run, child(at, 'between_run')) };
  return { ...ratioCI(p, at), tax, ...dfOf(p, at), ...between };
}

/** A cell's import tax: its interval, and where written, its degrees of freedom, control and uncontrolled figure. */
function importTaxOf(v: unknown, at: At): ImportTax {
  const t = record(v, at);
  const out: ImportTax = { ...ratioCI(t, at), ...dfOf(t, at) };
  if (t.uncontrolled !== undefined) out.uncontrolled = ratioCI(t.uncontrolled, child(at, 'uncontrolled'));
  if (t.control !== undefined) {
    const c = t.control === null ? null : record(t.control, child(at, 'control'));
    out.control =
      c === null
        ? null
        : {
            cell: text(c.cell, child(child(at, 'control'), 'cell')),
            environment: text(c.environment, child(child(at, 'control'), 'environment')),
            processes: count(c.processes, child(child(at, 'control'), 'processes'), MAX_PROCESSES),
          };
  }
  return out;
}

/** A baseline cell's control figures, one per environment. */
function controlOf(v: unknown, at: At): ControlFigures[] {
  return boundedList(v, at, MAX_PROCESSES, 'environments').map((x, i) => {
    const a = child(at, i);
    const f = record(x, a);
    return {
      environment: text(f.environment, child(a, 'environment')),
      ratio: ratioCI(f.ratio, child(a, 'ratio')),
      drift: ratioCI(f.drift, child(a, 'drift')),
      processes: boundedList(f.processes ?? [], child(a, 'processes'), MAX_PROCESSES, 'processes').map((y, j) =>
        processOf(y, child(child(a, 'processes'), j)),
      ),
      failed: count(f.failed ?? 0, child(a, 'failed'), MAX_PROCESSES),
    };
  });
}

function pairedOf(v: unknown, at: At): PairedFigures {
  const p = record(v, at);
  const f = (k: string) => child(at, k);
  return {
    ...ratioCI(p, at),
    ...dfOf(p, at),
    pairs: count(p.pairs, f('pairs'), MAX_PAIRS),
    baseline: text(p.baseline, f('baseline')),
    published: publishedOf(p.published, f('published')),
    processes: boundedList(p.processes ?? [], f('processes'), MAX_PROCESSES, 'processes').map((x, i) =>
      processOf(x, child(f('processes'), i)),
    ),
  };
}

/** The paired fields of one cell as the model has them; absent fields stay absent. */
export function pairedFields(c: Record<string, unknown>, at: At): Partial<CellResult> {
  const out: Partial<CellResult> = {};
  if (c.paired !== undefined) out.paired = c.paired === null ? null : pairedOf(c.paired, child(at, 'paired'));
  if (c.import_tax !== undefined)
    out.import_tax = c.import_tax === null ? null : importTaxOf(c.import_tax, child(at, 'import_tax'));
  if (c.control !== undefined) out.control = c.control === null ? null : controlOf(c.control, child(at, 'control'));
  if (c.unpaired !== undefined) out.unpaired = optText(c.unpaired, child(at, 'unpaired'));
  if (c.baseline_from !== undefined)
    out.baseline_from =
      c.baseline_from === null
        ? null
        : boundedList(c.baseline_from, child(at, 'baseline_from'), MAX_PROCESSES, 'cells').map((x, i) =>
            text(x, child(child(at, 'baseline_from'), i)),
          );
  return out;
}

/** The A/A cell's paired figures (`aa_noise.paired`): pairs a count, each ratio positive and finite. */
export function aaPairedOf(
  v: unknown,
  at: At,
): { pairs: number; ratios: number[]; max_rel_diff: number | null } | null {
  if (v === null) return null;
  const p = record(v, at);
  return {
    pairs: count(p.pairs, child(at, 'pairs'), MAX_PROCESSES),
    ratios: boundedList(p.ratios, child(at, 'ratios'), 2 * MAX_PROCESSES, 'ratios').map((x, i) =>
      ratioValue(x, child(child(at, 'ratios'), i)),
    ),
    max_rel_diff: optNonNegative(p.max_rel_diff, child(at, 'max_rel_diff')),
  };
}
