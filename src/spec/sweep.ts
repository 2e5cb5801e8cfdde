// The sweep axis: `sweep: { inputs.shape.1: [16, 64, 256] }` on a subject makes one subject per value (for
// several keys, one per combination, in declared order), each the declared subject with that value written
// in, and named SUBJECT@seq=256. Pure: the points are made from the written data, as if declared by hand.
import type { SubjectData } from './data.ts';
import { MAX_SWEEP_POINTS } from './limits.ts';
import type { Subject, SweepAxis, SweepValue } from './types.ts';
import { VERSION_SEP } from './versions.ts';

/** A problem of a subject's `sweep`, at a key (index null) or at one of its values. */
export interface SweepProblem {
  key: string;
  index: number | null;
  message: string;
  hint: string;
}

/** Characters a value may not hold: they separate the parts of a cell id, a point id and a sweep list. */
const ID_BREAKING = /[@=/,;\s]/;

/**
 * The short name of a swept path in its points' ids: `inputs.shape.0` is `batch`, `inputs.shape.1` of
 * tokens is `seq`, `model.config.KEY` is `KEY`; other shape entries are `shape.N`; any other path is itself.
 */
export function sweepName(path: string, kind: SubjectData['inputs']['kind']): string {
  if (path === 'inputs.shape.0') return 'batch';
  if (path === 'inputs.shape.1' && kind === 'tokens') return 'seq';
  if (path.startsWith('inputs.shape.')) return path.slice('inputs.'.length);
  if (path.startsWith('model.config.') && path.split('.').length === 3) return path.slice('model.config.'.length);
  return path;
}

/** The value a dotted path names in the written subject (list entries by index); undefined when none. */
export function valueAtPath(data: unknown, path: string): unknown {
  let at: unknown = data;
  for (const part of path.split('.')) {
    if (Array.isArray(at) && /^\d+$/.test(part)) at = at[Number(part)];
    else if (at !== null && typeof at === 'object' && !Array.isArray(at))
      at = Object.hasOwn(at, part) ? (at as Record<string, unknown>)[part] : undefined;
    else return undefined;
  }
  return at;
}

/** The type a value must have to replace `was`: an integer for an integer, else its typeof; null when it cannot be swept. */
function valueTypeOf(was: unknown): 'integer' | 'number' | 'string' | 'boolean' | null {
  if (typeof was === 'number') return Number.isInteger(was) ? 'integer' : 'number';
  if (typeof was === 'string' || typeof was === 'boolean') return typeof was as 'string' | 'boolean';
  return null;
}

function fits(value: unknown, type: NonNullable<ReturnType<typeof valueTypeOf>>): boolean {
  if (type === 'integer') return typeof value === 'number' && Number.isInteger(value);
  return typeof value === type;
}

/** Every problem of a subject's written `sweep`: paths it lacks, lists that are empty, duplicated or of another type. */
export function sweepProblems(data: SubjectData): SweepProblem[] {
  const out: SweepProblem[] = [];
  const names = new Map<string, string>();
  let points = 1;
  for (const [key, values] of Object.entries(data.sweep ?? {})) {
    const problem = (message: string, hint: string, index: number | null = null) =>
      out.push({ key, index, message, hint });
    if (!key.startsWith('model.') && !key.startsWith('inputs.')) {
      problem(
        `'${key}' is not a path under model or inputs.`,
        'Sweep a value of the model or its inputs, e.g. inputs.shape.1 or model.config.n_layer.',
      );
      continue;
    }
    const was = valueAtPath(data, key);
    const type = valueTypeOf(was);
    if (was === undefined) {
      problem(
        `the subject has no ${key} to sweep.`,
        'Write the value in the subject first (every point is the subject with its swept values written in), or check the path: list entries are numbered from 0.',
      );
      continue;
    }
    if (type === null) {
      problem(
        `${key} is a ${Array.isArray(was) ? 'list' : 'mapping'}; a sweep replaces one value.`,
        `Sweep one of its entries, e.g. ${key}.${Array.isArray(was) ? '0' : (Object.keys(was as object)[0] ?? 'KEY')}.`,
      );
      continue;
    }
    if (!Array.isArray(values)) {
      problem(`a sweep maps a path to a list of values (got ${JSON.stringify(values)}).`, `Write ${key}: [A, B, ...].`);
      continue;
    }
    if (values.length === 0) {
      problem('the list of values is empty.', 'List the values to sweep, or remove the key.');
      continue;
    }
    const name = sweepName(key, data.inputs.kind);
    if (names.has(name))
      problem(`${key} and ${names.get(name)} both make point ids with '${name}='.`, 'Sweep one of them.');
    names.set(name, key);
    const seen = new Set<string>();
    values.forEach((v, i) => {
      const text = JSON.stringify(v);
      if (!fits(v, type))
        problem(
          `${text} is not ${type === 'integer' ? 'an integer' : `a ${type}`}, as ${key} (${JSON.stringify(was)}) is.`,
          `Sweep ${key} over ${type} values.`,
          i,
        );
      else if (type === 'integer' && key.startsWith('inputs.shape.') && (v as number) < 1)
        problem(`${text} is not a size: a shape's entries are at least 1.`, 'Remove it.', i);
      else if (typeof v === 'string' && (v === '' || ID_BREAKING.test(v)))
        problem(
          `${text} would break the point's id (SUBJECT@${name}=VALUE): a value may not be empty or hold @ = / , ; or spaces.`,
          'Use a value without them.',
          i,
        );
      else if (seen.has(text)) problem(`${text} is listed twice.`, 'Remove one.', i);
      seen.add(text);
    });
    points *= values.length;
  }
  if (points > MAX_SWEEP_POINTS)
    out.push({
      key: '',
      index: null,
      message: `the sweep makes ${points.toLocaleString('en-US')} points; a subject may have at most ${MAX_SWEEP_POINTS.toLocaleString('en-US')}.`,
      hint: 'Sweep fewer values, or split the sweep over several subjects.',
    });
  return out;
}

/** A subject's swept keys in declared order; none when its sweep has any problem (validate reports them). */
export function sweepAxes(data: SubjectData): SweepAxis[] {
  if (!data.sweep || sweepProblems(data).length > 0) return [];
  return Object.entries(data.sweep).map(([path, values]) => ({
    path,
    name: sweepName(path, data.inputs.kind),
    values,
  }));
}

/** The id of one point: `gpt2@seq=256`, `gpt2@seq=256@n_layer=6` (src/report/tidy.ts splitSweep reads it). */
export function pointId(subject: string, values: Record<string, SweepValue>): string {
  return [subject, ...Object.entries(values).map(([k, v]) => `${k}=${String(v)}`)].join(VERSION_SEP);
}

/** Every combination of the axes' values, the first axis slowest: one `name -> value` per point. */
export function sweepPoints(axes: readonly SweepAxis[]): Record<string, SweepValue>[] {
  let points: Record<string, SweepValue>[] = [{}];
  for (const axis of axes) points = points.flatMap((p) => axis.values.map((v) => ({ ...p, [axis.name]: v })));
  return points;
}

/** The written subject with one point's values written in and its `sweep` gone: the subject as declared by hand. */
export function pointData(
  data: SubjectData,
  axes: readonly SweepAxis[],
  values: Record<string, SweepValue>,
): SubjectData {
  const { sweep: _sweep, ...rest } = data;
  const copy = structuredClone(rest) as SubjectData;
  for (const axis of axes) {
    const parts = axis.path.split('.');
    const parent = valueAtPath(copy, parts.slice(0, -1).join('.')) as Record<string, unknown> | unknown[];
    const last = parts[parts.length - 1];
    if (Array.isArray(parent)) parent[Number(last)] = values[axis.name];
    else parent[last] = values[axis.name];
  }
  return copy;
}

/**
 * Adds one subject per point of each swept subject, built by `build` from the point's written data
 * exactly as a subject declared so, and marked with the point it is; the declared subject stays, for the
 * groups and reasons that name it. A point of a subject with `dtypes` keeps them: the dtype axis then makes
 * SUBJECT@seq=256@bf16 from it.
 */
export function expandSweeps(
  subjects: Record<string, Subject>,
  written: Record<string, SubjectData>,
  build: (id: string, data: SubjectData) => Subject,
): void {
  for (const [of, data] of Object.entries(written)) {
    const axes = sweepAxes(data);
    if (axes.length === 0 || !subjects[of]) continue;
    for (const values of sweepPoints(axes)) {
      const id = pointId(of, values);
      subjects[id] = { ...build(id, pointData(data, axes, values)), sweep: { of, values } };
    }
  }
}

/** The ids of a swept subject's points, in declared order. */
export function pointIds(s: Subject): string[] {
  return sweepPoints(s.swept).map((values) => pointId(s.id, values));
}

/**
 * Whether a reason (or group, or page row) naming `named` covers the subject `id`: its own id, or one it
 * was made from, whose parts after the subject are among the id's (`gpt2`, `gpt2@seq=256` and `gpt2@bf16`
 * each cover `gpt2@seq=256@bf16`).
 */
export function namesSubject(named: string, id: string): boolean {
  if (named === id) return true;
  const [base, ...parts] = id.split(VERSION_SEP);
  const [nbase, ...nparts] = named.split(VERSION_SEP);
  return base === nbase && nparts.every((p) => parts.includes(p));
}
