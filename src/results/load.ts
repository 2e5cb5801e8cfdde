// One typed loader for results files: benchgrid's own (format_version 1) and the seed layout (upgraded).
import { parseNotes, parseWork } from './work.ts';
import { parseAgreement, parseEffect } from './effect.ts';
import { parsePrecisionControl } from './precision-control.ts';
import { pairedFields } from './paired-load.ts';
import { metaOf } from './load-subject.ts';
import { memoryOf, processOf } from './load-process.ts';
import { UserError } from '../errors.ts';
import { resultsPath } from './path.ts';
import { depthOf, MAX_JSON_DEPTH, readJsonFile } from '../util/json-file.ts';
import {
  bad,
  boundedList,
  child,
  count,
  duration,
  list,
  MAX_PROCESSES,
  MAX_SAMPLES,
  oneOf,
  optCount,
  optDuration,
  optNonNegative,
  optRecord,
  optText,
  optTime,
  record,
  sampleLists,
  text,
  textRecord,
  texts,
  type At,
} from './fields.ts';
import { RESULTS_FORMAT, SEED_LAYOUT, type CellResult, type CellSource, type Results, type Verdict } from './model.ts';
import { dict } from '../util/dict.ts';
import { cellInconsistency } from './consistency.ts';
import { parseGrowth } from './memory-growth.ts';
import { forTerminal } from '../util/escape.ts';

/** Top-level keys that are not subjects. */
export const RESERVED_KEYS = new Set([
  'format_version',
  'spec',
  'partial',
  'measured_on',
  'host',
  'versions',
  'harness',
  'page_rows',
  'run',
]);

/** Largest results file read: raw samples of a big run fit well below it. */
export const MAX_RESULTS_BYTES = 256 * 1024 * 1024;

/** Reads and upgrades a results file; throws UserError with the file name on anything unreadable. */
export function loadResults(arg: string): Results {
  const file = resultsPath(arg);
  return fromJson(readJsonFile(file, MAX_RESULTS_BYTES, 'results file'), file);
}

/** Upgrades parsed JSON of any known version to the current model; every field is type-checked here. */
export function fromJson(raw: unknown, file = '<results>'): Results {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new UserError(`${file}: not a results file: expected a JSON object.`);
  if (depthOf(raw) > MAX_JSON_DEPTH)
    throw new UserError(`${file}: not a results file: nested deeper than ${MAX_JSON_DEPTH} levels.`);
  const r = raw as Record<string, unknown>;
  const top: At = { file, path: '' };
  const version = r.format_version ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0)
    throw new UserError(
      `${file}: results format ${JSON.stringify(version)} is not a format version. Give a results file benchgrid wrote.`,
    );
  if (version > RESULTS_FORMAT)
    throw new UserError(
      `${file}: results format ${version} is newer than this benchgrid reads (${RESULTS_FORMAT}); upgrade benchgrid.`,
    );
  const subjects: Results['subjects'] = dict();
  const cells: CellResult[] = [];
  for (const [key, value] of Object.entries(r)) {
    if (RESERVED_KEYS.has(key) || !value || typeof value !== 'object' || !('groups' in value)) continue;
    const at = child(top, key);
    const s = record(value, at);
    subjects[key] = {
      meta: metaOf(s.meta, child(at, 'meta')),
      not_measured: s.not_measured === undefined ? [] : list(s.not_measured, child(at, 'not_measured')).map(String),
    };
    const groups = record(s.groups, child(at, 'groups'));
    for (const [id, c] of Object.entries(groups))
      cells.push(cellOf(id, record(c, child(child(at, 'groups'), id)), key, child(child(at, 'groups'), id)));
  }
  if (cells.length === 0) throw new UserError(`${file}: not a results file: no subject with "groups" in it.`);
  // Derived figures must be those of the samples stored beside them: compare judges the samples, while the
  // tables, --fail-on-slower's list and history read the figures (src/results/consistency.ts).
  for (const c of cells) {
    const problem = cellInconsistency(c);
    if (problem)
      throw new UserError(`${file}: cell ${forTerminal(c.id)}: ${problem}; the file was edited or is corrupt.`);
  }
  return {
    format_version: RESULTS_FORMAT,
    origin: version === 0 ? SEED_LAYOUT : 'benchgrid',
    spec: specOf(r.spec, child(top, 'spec')),
    partial: r.partial === true,
    measured_on: optText(r.measured_on, child(top, 'measured_on')) ?? '',
    host: optRecord(r.host, child(top, 'host')),
    versions: textRecord(r.versions, child(top, 'versions')),
    harness: optText(r.harness, child(top, 'harness')) ?? '',
    subjects,
    cells,
    page_rows:
      r.page_rows === undefined || r.page_rows === null
        ? null
        : list(r.page_rows, child(top, 'page_rows')).map((x, i) => {
            const at = child(child(top, 'page_rows'), i);
            const row = record(x, at);
            return { section: text(row.section, child(at, 'section')), text: text(row.text, child(at, 'text')) };
          }),
    run: r.run === undefined || r.run === null ? null : record(r.run, child(top, 'run')),
  };
}

function specOf(v: unknown, at: At): Results['spec'] {
  if (v === undefined || v === null) return null;
  const s = record(v, at);
  return {
    name: text(s.name, child(at, 'name')),
    title: optText(s.title, child(at, 'title')) ?? '',
    digest: optText(s.digest, child(at, 'digest')),
    device: optText(s.device, child(at, 'device')),
  };
}

const STATUSES = ['ok', 'unsupported', 'error'] as const;

function cellOf(id: string, c: Record<string, unknown>, subjectKey: string, at: At): CellResult {
  const parts = id.split('/');
  if (parts.length !== 4)
    throw new UserError(`${at.file}: cell id ${JSON.stringify(id)} is not GROUP/contract/tool/subject.`);
  const statuses = c.statuses === undefined ? [String(c.status ?? 'error')] : texts(c.statuses, child(at, 'statuses'));
  const derived = statuses.includes('error') ? 'error' : statuses.includes('ok') ? 'ok' : 'unsupported';
  const f = (k: string) => child(at, k);
  return {
    id,
    group: parts[0],
    contract: parts[1],
    tool: parts[2],
    subject: parts[3] || subjectKey,
    status: c.status === undefined ? derived : oneOf(c.status, STATUSES, f('status')),
    statuses,
    reason: optText(c.reason, f('reason')),
    median_ms: optTime(c.median_ms, f('median_ms')),
    min_ms: optTime(c.min_ms, f('min_ms')),
    max_ms: optTime(c.max_ms, f('max_ms')),
    processes: optCount(c.processes, f('processes'), MAX_PROCESSES),
    samples_per_process:
      c.samples_per_process === undefined || c.samples_per_process === null
        ? null
        : boundedList(c.samples_per_process, f('samples_per_process'), MAX_PROCESSES, 'processes').map((x, i) =>
            count(x, child(f('samples_per_process'), i), MAX_SAMPLES),
          ),
    exact: verdictOf(c),
    max_abs_diff: optNonNegative(c.max_abs_diff, f('max_abs_diff')),
    ...exactFiguresOf(c, at),
    samples_ms: c.samples_ms === undefined || c.samples_ms === null ? null : sampleLists(c.samples_ms, f('samples_ms')),
    gc_ms:
      c.gc_ms === undefined || c.gc_ms === null ? null : sampleLists(c.gc_ms, f('gc_ms'), (x, at) => duration(x, at)),
    gc_median_ms: optDuration(c.gc_median_ms, f('gc_median_ms')),
    stopped_by:
      c.stopped_by === undefined || c.stopped_by === null
        ? null
        : oneOf(c.stopped_by, ['precision', 'processes', 'budget', 'unreachable'] as const, f('stopped_by')),
    precision_half_width: optNonNegative(c.precision_half_width, f('precision_half_width')),
    per_process:
      c.per_process === undefined || c.per_process === null
        ? null
        : boundedList(c.per_process, f('per_process'), MAX_PROCESSES, 'processes').map((x, i) =>
            processOf(x, child(f('per_process'), i)),
          ),
    memory: c.memory === undefined || c.memory === null ? null : memoryOf(record(c.memory, f('memory')), f('memory')),
    ...(c.memory_growth === undefined ? {} : { memory_growth: parseGrowth(c.memory_growth, f('memory_growth')) }),
    tool_version: optText(c.tool_version, f('tool_version')),
    ...(c.tool_source === undefined ? {} : { tool_source: sourceOf(c.tool_source, f('tool_source')) }),
    error: c.error === undefined || c.error === null ? null : errorOf(record(c.error, f('error')), f('error')),
    runtime: runtimeOf(c.runtime, f('runtime')),
    ...('work' in c ? { work: parseWork(c.work) } : {}),
    ...('notes' in c ? { notes: parseNotes(c.notes) } : {}),
    ...pairedFields(c, at),
  };
}

/** A cell's effect-size guard and agreement figures, each only where the file has one. */
function exactFiguresOf(
  c: Record<string, unknown>,
  at: At,
): Pick<CellResult, 'effect' | 'agreement' | 'precision_control'> {
  const effect = parseEffect(c.effect, child(at, 'effect'));
  const agreement = parseAgreement(c.agreement, child(at, 'agreement'));
  const control = parsePrecisionControl(c.precision_control, child(at, 'precision_control'));
  return {
    ...(effect ? { effect } : {}),
    ...(agreement ? { agreement } : {}),
    ...(control ? { precision_control: control } : {}),
  };
}

function sourceOf(v: unknown, at: At): CellSource | null {
  if (v === null) return null;
  const s = record(v, at);
  const f = (k: string) => child(at, k);
  if (typeof s.dirty !== 'boolean') throw bad(f('dirty'), 'true or false', s.dirty);
  return {
    kind: oneOf(s.kind, ['tree', 'git'] as const, f('kind')),
    source: text(s.source, f('source')),
    commit: optText(s.commit, f('commit')),
    committed: optText(s.committed, f('committed')),
    dirty: s.dirty,
    digest: text(s.digest, f('digest')),
    version: optText(s.version, f('version')),
  };
}

function errorOf(e: Record<string, unknown>, at: At): NonNullable<CellResult['error']> {
  return {
    type: optText(e.type, child(at, 'type')),
    message: optText(e.message, child(at, 'message')) ?? '',
    tail: optText(e.tail, child(at, 'tail')),
  };
}

function runtimeOf(v: unknown, at: At): CellResult['runtime'] {
  if (v === undefined || v === null) return null;
  const r = record(v, at);
  const t = (k: string) => optText(r[k], child(at, k));
  return { environment: t('environment'), python: t('python'), torch: t('torch'), torchvision: t('torchvision') };
}

/**
 * The seed layout wrote `exact` as "bit", null, absent (the reference itself) or `true` (Captum's allclose
 * check): `true` becomes "close" (tolerance passed, bit equality not established), `false` "mismatch".
 */
function verdictOf(c: Record<string, unknown>): Verdict | undefined {
  if (!('exact' in c)) return undefined;
  const e = c.exact;
  if (e === true) return 'close';
  if (e === false) return 'mismatch';
  if (e === 'bit' || e === 'close' || e === 'mismatch' || e === 'vacuous' || e === 'degraded') return e;
  return null;
}
