// The subject probe: before a run's first cell (and on `validate --probe`), each subject is built once
// in its environment by the harness (benchgrid_harness/probe.py) and every declared site is looked up,
// so a module path the model lacks is one error at its line in the spec, with the nearest paths,
// instead of every process of every cell failing the same way. The probe is sent data only: the
// subjects as requests carry them; the harness's own builders make the models.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXIT, UserError } from '../../errors.ts';
import type { Plan } from '../../plan/expand.ts';
import { diag, ptr, type Diagnostic } from '../../spec/diagnostics.ts';
import { positionOf } from '../../spec/document.ts';
import { HARNESS_DIR, REPO_ROOT } from '../../repository.ts';
import { validatorFor } from '../../spec/schema.ts';
import { readJsonFile } from '../../util/json-file.ts';

/** A probe's result file larger than this is not one. */
const MAX_PROBE_BYTES = 16 * 1024 * 1024;
import type { Spec } from '../../spec/types.ts';
import { cacheDir } from '../../env/build.ts';
import { requestSubject } from '../../run/jobs.ts';
import { runOnce } from './spawn.ts';

/** One declared site as the probe found it. */
export interface ProbedSite {
  name: string;
  path: string;
  found: boolean;
  /** Whether one forward pass calls it; null when it was not found or the forward failed. */
  called: boolean | null;
  nearest: string[];
}

/** One subject as the probe found it. */
export interface ProbedSubject {
  id: string;
  built: boolean;
  error: string | null;
  modules: number;
  sites: ProbedSite[];
}

/** A probe result file (schemas/probe.schema.json). */
export interface ProbeResult {
  probe: 1;
  error: string | null;
  subjects: ProbedSubject[];
  versions: Record<string, string>;
}

/** The harness files whose code decides a probe's answer: a change to them makes cached answers stale. */
const PROBE_CODE = ['probe.py', 'subjects.py'].map((f) => path.join(HARNESS_DIR, 'benchgrid_harness', f));

/**
 * Which environment builds each subject: the spec's default environment when one of the subject's
 * planned cells runs there, else the environment of its first planned cell. Environments in `skip`
 * (they could not be built) probe nothing.
 */
export function probeTargets(
  spec: Spec,
  plan: Plan,
  selected: (id: string) => boolean,
  skip: ReadonlySet<string> = new Set(),
): Map<string, string[]> {
  const envOf = new Map<string, string>();
  for (const c of plan.cells) {
    if (c.status !== 'planned' || !selected(c.id) || skip.has(c.environment)) continue;
    const now = envOf.get(c.subject);
    if (now === undefined || (now !== spec.defaultEnvironment && c.environment === spec.defaultEnvironment))
      envOf.set(c.subject, c.environment);
  }
  const out = new Map<string, string[]>();
  for (const [subject, env] of envOf) out.set(env, [...(out.get(env) ?? []), subject]);
  return out;
}

/** Probes `subjects` of `spec` with `python`; answers are cached per interpreter, subject data and probe code. */
export async function runProbe(
  spec: Spec,
  subjects: string[],
  python: string,
  env: string,
  log: (line: string) => void = () => {},
): Promise<ProbeResult> {
  const request = { probe: 1, subjects: subjects.map((id) => requestSubject(spec.subjects[id])) };
  const key = cacheKey(python, request);
  const cached = key ? readCached(key) : null;
  if (cached) return cached;
  log(
    `probing ${subjects.length === 1 ? `subject ${subjects[0]}` : `${subjects.length} subjects`} in environment ${env}: building each model once to check its sites`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-probe-'));
  try {
    const req = path.join(dir, 'probe.request.json');
    const res = path.join(dir, 'probe.result.json');
    fs.writeFileSync(req, JSON.stringify(request));
    const r = await runOnce(python, {
      argv: ['-m', 'benchgrid_harness.probe', '--request', req, '--result', res],
      cwd: REPO_ROOT,
      pythonpath: [HARNESS_DIR],
      threads: 1,
      tmpdir: dir,
      stdout: path.join(dir, 'probe.stdout.log'),
      stderr: path.join(dir, 'probe.stderr.log'),
      cpus: null,
      timeout_s: 600,
    });
    const result = readResult(res);
    if (!result) {
      const tail = (r.spawnError ?? r.stderrTail).trim().split('\n').slice(-3).join(' / ');
      throw new UserError(
        `the subject probe could not run in environment ${env} (${python}): ${r.timedOut ? 'it timed out' : r.spawnError ? 'it could not start' : r.signal ? `killed by ${r.signal}` : `exit ${r.exitCode}`}${tail ? `: ${tail}` : ''}.`,
        EXIT.runFailed,
      );
    }
    if (result.error)
      throw new UserError(
        `the subject probe could not run in environment ${env} (${python}): ${result.error}`,
        EXIT.runFailed,
      );
    if (key) writeCached(key, result);
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The spec's problems the probe found: at the site's line, with the nearest module paths. */
export function probeDiagnostics(spec: Spec, result: ProbeResult, env: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const s of result.subjects) {
    const subject = spec.subjects[s.id];
    if (!subject) continue;
    if (s.error && !s.built) {
      const p = ptr('subjects', s.id, 'model');
      out.push(
        diag(
          'error',
          'subject-build-failed',
          positionOf(spec.positions, p, spec.file),
          p,
          `subject '${s.id}' could not be built in environment ${env}: ${s.error}`,
          'Check the model name and config against the builder (docs/spec.md).',
        ),
      );
      continue;
    }
    for (const site of s.sites) {
      const p = ptr('subjects', s.id, 'sites', site.name);
      const at = positionOf(spec.positions, p, spec.file);
      if (!site.found) {
        const near = site.nearest.length
          ? `Nearest module paths: ${site.nearest.join(', ')}.`
          : 'The model has no module paths to suggest.';
        out.push(
          diag(
            'error',
            'site-not-found',
            at,
            p,
            `site '${site.name}' of subject '${s.id}' is module path '${site.path}', which the model does not have (${s.modules} modules).`,
            `${near} A site is a name from model.named_modules().`,
          ),
        );
      } else if (site.called === false) {
        out.push(
          diag(
            'error',
            'site-not-called',
            at,
            p,
            `site '${site.name}' of subject '${s.id}' (module path '${site.path}') is not called by the model's forward pass, so no tool can read its output.`,
            'Choose a module the forward calls.',
          ),
        );
      }
    }
    if (s.error && s.built) {
      const p = ptr('subjects', s.id);
      out.push(
        diag(
          'error',
          'subject-forward-failed',
          positionOf(spec.positions, p, spec.file, true),
          p,
          `subject '${s.id}': ${s.error}`,
          'Check the inputs (shape, kind, vocab) against the model.',
        ),
      );
    }
  }
  return out;
}

function readResult(file: string): ProbeResult | null {
  let data: unknown;
  try {
    data = readJsonFile(file, MAX_PROBE_BYTES, 'probe result');
  } catch {
    return null;
  }
  return validatorFor('probe.schema.json')(data) ? (data as ProbeResult) : null;
}

/**
 * The cache key of a probe: the interpreter (path and the time its file was made: a rebuilt
 * environment is a new answer), the request and the probe's code. null when the interpreter is
 * not a file benchgrid can identify (a bare name on PATH): then nothing is cached.
 */
function cacheKey(python: string, request: unknown): string | null {
  if (!path.isAbsolute(python)) return null;
  try {
    const stat = fs.lstatSync(python);
    const code = PROBE_CODE.map((f) => fs.readFileSync(f, 'utf8'));
    return crypto
      .createHash('sha256')
      .update(JSON.stringify({ python, made: stat.mtimeMs, request, code }))
      .digest('hex')
      .slice(0, 24);
  } catch {
    return null;
  }
}

const cachePath = (key: string) => path.join(cacheDir(), 'probes', `${key}.json`);

function readCached(key: string): ProbeResult | null {
  return fs.existsSync(cachePath(key)) ? readResult(cachePath(key)) : null;
}

function writeCached(key: string, result: ProbeResult): void {
  try {
    fs.mkdirSync(path.dirname(cachePath(key)), { recursive: true });
    const tmp = `${cachePath(key)}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(result));
    fs.renameSync(tmp, cachePath(key));
  } catch {
    // A read-only cache probes again next time; the answer itself stands.
  }
}

/** What a probe of a spec did: its diagnostics, and each subject as found, with the environment that built it. */
export interface ProbeReport {
  diagnostics: Diagnostic[];
  subjects: (ProbedSubject & { env: string })[];
}

/**
 * Probes every subject the selected planned cells use, each once in its environment; returns the
 * spec's diagnostics (empty when every site is there) and what was found. Throws (exit 3) when a
 * probe cannot run at all.
 */
export async function probeSpec(
  spec: Spec,
  plan: Plan,
  selected: (id: string) => boolean,
  pythons: Record<string, string>,
  log: (line: string) => void,
): Promise<ProbeReport> {
  const out: ProbeReport = { diagnostics: [], subjects: [] };
  const skip = new Set(Object.keys(spec.environments).filter((e) => pythons[e] === undefined));
  for (const [env, subjects] of probeTargets(spec, plan, selected, skip)) {
    const python = pythons[env];
    if (!python) continue;
    const result = await runProbe(spec, subjects, python, env, log);
    out.diagnostics.push(...probeDiagnostics(spec, result, env));
    out.subjects.push(...result.subjects.map((s) => ({ ...s, env })));
  }
  return out;
}

/** What the probe checked, in one line: `probe: 1 subject built (resnet18 in main, 68 modules), 1 of 1 sites found and called by the forward`. */
export function probeSummary(report: ProbeReport): string {
  const subjects = report.subjects;
  if (subjects.length === 0) return 'probe: no subject to build (no planned cell)';
  const built = subjects.filter((s) => s.built);
  const sites = subjects.flatMap((s) => s.sites);
  const found = sites.filter((s) => s.found).length;
  const called = sites.filter((s) => s.called === true).length;
  const each = built.map((s) => `${s.id} in ${s.env}, ${s.modules} modules`).join('; ');
  const notBuilt = subjects.length - built.length;
  return `probe: ${built.length} subject${built.length === 1 ? '' : 's'} built${each ? ` (${each})` : ''}${notBuilt ? `, ${notBuilt} could not be` : ''}; ${found} of ${sites.length} site${sites.length === 1 ? '' : 's'} found in ${built.length === 1 ? 'its model' : 'their models'}, ${called} called by the forward`;
}
