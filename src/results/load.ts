// One typed loader for results files: benchgrid's own (format_version 1) and the seed's layout (upgraded).
import fs from 'node:fs';
import { UserError } from '../errors.ts';
import { RESULTS_FORMAT, type CellResult, type Results, type SubjectMeta, type Verdict } from './model.ts';

/** Top-level keys that are not subjects. */
export const RESERVED_KEYS = new Set(['format_version', 'spec', 'partial', 'measured_on', 'host', 'versions', 'harness', 'page_rows', 'run']);

/** Reads and upgrades a results file; throws UserError with the file name on anything unreadable. */
export function loadResults(file: string): Results {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError(`${file}: cannot read the results file (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory; give its results.json' : code}).`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file}: not a results file: invalid JSON (${(error as Error).message}).`);
  }
  return fromJson(raw, file);
}

/** Upgrades parsed JSON of any known version to the current model. */
export function fromJson(raw: unknown, file = '<results>'): Results {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new UserError(`${file}: not a results file: expected a JSON object.`);
  const r = raw as Record<string, any>;
  const version = r.format_version ?? 0;
  if (typeof version !== 'number' || version > RESULTS_FORMAT) {
    throw new UserError(`${file}: results format ${JSON.stringify(version)} is newer than this benchgrid reads (${RESULTS_FORMAT}); upgrade benchgrid.`);
  }
  const subjects: Results['subjects'] = {};
  const cells: CellResult[] = [];
  for (const [key, value] of Object.entries(r)) {
    if (RESERVED_KEYS.has(key) || !value || typeof value !== 'object' || !('groups' in value)) continue;
    subjects[key] = { meta: metaOf(value.meta), not_measured: Array.isArray(value.not_measured) ? value.not_measured.map(String) : [] };
    for (const [id, c] of Object.entries(value.groups as Record<string, any>)) cells.push(cellOf(id, c, key, file));
  }
  if (cells.length === 0) throw new UserError(`${file}: not a results file: no subject with "groups" in it.`);
  return {
    format_version: RESULTS_FORMAT,
    origin: version === 0 ? 'seed' : 'benchgrid',
    spec: r.spec ?? null,
    partial: r.partial === true,
    measured_on: String(r.measured_on ?? ''),
    host: r.host ?? {},
    versions: r.versions ?? {},
    harness: String(r.harness ?? ''),
    subjects,
    cells,
    page_rows: Array.isArray(r.page_rows) ? r.page_rows : null,
    run: r.run ?? null,
  };
}

function cellOf(id: string, c: Record<string, any>, subjectKey: string, file: string): CellResult {
  const parts = id.split('/');
  if (parts.length !== 4) throw new UserError(`${file}: cell id '${id}' is not GROUP/contract/tool/subject.`);
  const statuses: string[] = Array.isArray(c.statuses) ? c.statuses.map(String) : [String(c.status ?? 'error')];
  const status = (c.status ?? (statuses.includes('error') ? 'error' : statuses.includes('ok') ? 'ok' : 'unsupported')) as CellResult['status'];
  return {
    id,
    group: parts[0],
    contract: parts[1],
    tool: parts[2],
    subject: parts[3] || subjectKey,
    status,
    statuses,
    reason: c.reason ?? null,
    median_ms: num(c.median_ms),
    min_ms: num(c.min_ms),
    max_ms: num(c.max_ms),
    processes: num(c.processes),
    samples_per_process: Array.isArray(c.samples_per_process) ? c.samples_per_process : null,
    exact: verdictOf(c),
    max_abs_diff: num(c.max_abs_diff),
    samples_ms: Array.isArray(c.samples_ms) ? c.samples_ms : null,
    gc_ms: Array.isArray(c.gc_ms) ? c.gc_ms : null,
    gc_median_ms: num(c.gc_median_ms),
    stopped_by: c.stopped_by === 'precision' || c.stopped_by === 'processes' || c.stopped_by === 'budget' ? c.stopped_by : null,
    precision_half_width: num(c.precision_half_width),
    per_process: Array.isArray(c.per_process) ? c.per_process : null,
    memory: c.memory ?? null,
    tool_version: c.tool_version ?? null,
    error: c.error ?? null,
    runtime: c.runtime ?? null,
  };
}

/**
 * The seed wrote `exact` as "bit", null, absent (the reference itself) or `true` (Captum's allclose
 * check): `true` becomes "close" (tolerance passed, bit equality not established), `false` "mismatch".
 */
function verdictOf(c: Record<string, any>): Verdict | undefined {
  if (!('exact' in c)) return undefined;
  const e = c.exact;
  if (e === true) return 'close';
  if (e === false) return 'mismatch';
  if (e === 'bit' || e === 'close' || e === 'mismatch') return e;
  return null;
}

function metaOf(m: any): SubjectMeta | null {
  if (!m || typeof m !== 'object') return null;
  const aa = m.aa_noise;
  return {
    environment: m.environment ?? {},
    versions: m.versions ?? {},
    protocol: m.protocol ?? {},
    aa_noise: aa ? { pairs: Number(aa.pairs ?? 0), medians_ms: aa.medians_ms ?? [], max_rel_diff: num(aa.max_rel_diff), cell: aa.cell ?? null } : null,
  };
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
