// The environment guard: which facts about the machine, versions and protocol differ between two runs.
import type { Results, SubjectMeta } from '../results/model.ts';
import type { EnvDifference } from './model.ts';

/** A fact's value: absent (not recorded), null (recorded as none), or its text. */
type Fact = string | null | undefined;
type Source = (r: Results, meta: SubjectMeta | null) => unknown;

/** Named facts and where each format records them, first source that has it wins. */
const NAMED: [key: string, sources: Source[]][] = [
  ['device', [(_, m) => m?.environment.device, (r) => r.spec?.device, (r) => /--device[ =](\S+)/.exec(r.harness)?.[1]]],
  ['gpu', [(_, m) => m?.environment.gpu_name, (r) => r.host.gpu, (r) => r.host.gpu_name]],
  [
    'cpu',
    [
      (_, m) => m?.environment.cpu,
      (_, m) => m?.environment.cpu_model,
      (_, m) => m?.environment.processor,
      (r) => r.host.cpu,
      (r) => r.host.cpu_model,
    ],
  ],
  ['cpu_count', [(_, m) => m?.environment.cpu_count, (r) => r.host.cpus, (r) => r.host.cpu_count]],
  ['platform', [(_, m) => m?.environment.platform, (r) => r.host.platform]],
  ['python', [(_, m) => m?.environment.python, (_, m) => m?.versions.python, (r) => r.versions.python]],
  ['cuda', [(_, m) => m?.environment.cuda, (_, m) => m?.versions.cuda]],
  ['torch_threads', [(_, m) => m?.environment.torch_num_threads, (r) => r.host.torch_threads]],
  ['omp_num_threads', [(_, m) => m?.environment.omp_num_threads_env, (r) => r.host.omp_num_threads]],
  // Cell processes run at once (`run --jobs`): parallel processes contend for memory bandwidth and GPUs.
  ['jobs', [(r) => r.run?.jobs]],
];

/** Protocol keys that do not change what is measured (listed as notes). */
const PROTOCOL_NOTES = new Set(['timeout_s']);

/** Facts listed but never blocking: they differ between any two runs without making them incomparable. */
const NOTES: [key: string, sources: Source[]][] = [
  ['hostname', [(_, m) => m?.environment.hostname, (r) => r.host.hostname]],
  ['host', [(r) => r.host.name]],
  ['load_average_1m', [(_, m) => m?.environment.load_average_1m, (r) => r.host.load_average_1m]],
  ['executable', [(_, m) => m?.environment.executable]],
  ['git_sha', [(_, m) => m?.versions.git_sha, (r) => r.versions.git_sha]],
];

/** The facts of one subject of a run (or of the whole file when meta is null), keyed as displayed. */
export function factsOf(r: Results, subject: string | null): Map<string, { value: Fact; blocking: boolean }> {
  const meta = subject ? (r.subjects[subject]?.meta ?? null) : null;
  const out = new Map<string, { value: Fact; blocking: boolean }>();
  for (const [list, blocking] of [
    [NAMED, true],
    [NOTES, false],
  ] as const) {
    for (const [key, sources] of list) out.set(key, { value: first(sources.map((s) => s(r, meta))), blocking });
  }
  const versions = { ...r.versions, ...(meta?.versions ?? {}) };
  for (const [k, v] of Object.entries(versions))
    if (k !== 'python' && k !== 'git_sha' && k !== 'cuda') out.set(`versions.${k}`, { value: text(v), blocking: true });
  for (const [k, v] of Object.entries(meta?.protocol ?? {}))
    out.set(`protocol.${k}`, { value: text(v), blocking: !PROTOCOL_NOTES.has(k) });
  const cells = r.cells.filter((c) => subject === null || c.subject === subject);
  const starts = [...new Set(cells.flatMap((c) => c.per_process?.map((p) => p.start) ?? []))].sort();
  if (starts.length > 0 && !out.has('protocol.start'))
    out.set('protocol.start', { value: starts.join(', '), blocking: true });
  const tools = new Map<string, Set<string>>();
  for (const c of cells)
    if (c.tool_version) (tools.get(c.tool) ?? tools.set(c.tool, new Set()).get(c.tool)!).add(c.tool_version);
  for (const [tool, vs] of tools) out.set(`tool.${tool}`, { value: [...vs].sort().join(', '), blocking: true });
  // A tool measured in its own environment may run another Python or torch than the run's.
  const runtimes = new Map<string, Set<string>>();
  for (const c of cells) {
    if (!c.runtime) continue;
    const text = `python ${c.runtime.python ?? '?'}, torch ${c.runtime.torch ?? '?'}`;
    (runtimes.get(c.tool) ?? runtimes.set(c.tool, new Set()).get(c.tool)!).add(text);
  }
  for (const [tool, rs] of runtimes) out.set(`runtime.${tool}`, { value: [...rs].sort().join('; '), blocking: true });
  // Every version each environment held (src/env/recorded.ts), so a transitive dependency that moved is named.
  for (const [name, pins] of resolvedOf(r)) {
    for (const [pkg, version] of pins) out.set(`${RESOLVED}${name}.${pkg}`, { value: version, blocking: true });
  }
  return out;
}

/** The key prefix of an environment's resolved package: `resolved.main.numpy`. */
const RESOLVED = 'resolved.';

/** Environment name -> package -> version, from `run.environments` (absent in results made before it). */
export function resolvedOf(r: Results): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  const envs = r.run?.environments;
  if (!envs || typeof envs !== 'object') return out;
  for (const [name, e] of Object.entries(envs as Record<string, { resolved?: unknown }>)) {
    if (!Array.isArray(e?.resolved)) continue;
    const pins = new Map<string, string>();
    for (const line of e.resolved)
      if (typeof line === 'string' && line.includes('=='))
        pins.set(line.slice(0, line.indexOf('==')), line.slice(line.indexOf('==') + 2));
    out.set(name, pins);
  }
  return out;
}

/**
 * A resolved package on one side only: where the other side recorded that environment's set it is a
 * real difference (installed there, not here: null); where it recorded none, nothing is known, and the
 * package is left out rather than listed as one note per package.
 */
function resolvedOneSide(key: string, other: Results): 'absent' | 'unknown' | null {
  if (!key.startsWith(RESOLVED)) return null;
  const name = [...resolvedOf(other).keys()].find((n) => key.startsWith(`${RESOLVED}${n}.`));
  return name === undefined ? 'unknown' : 'absent';
}

/**
 * Every fact that differs, once per distinct difference, with the subjects it differs for. A fact
 * recorded on one side only is listed as a note: its absence is not evidence of a difference.
 */
export function environmentDifferences(before: Results, after: Results): EnvDifference[] {
  const measured = new Set(before.cells.map((c) => c.subject));
  const common = Object.keys(before.subjects).filter((s) => Object.hasOwn(after.subjects, s) && measured.has(s));
  const scopes: (string | null)[] = common.length > 0 ? common : [null];
  const found = new Map<string, EnvDifference>();
  for (const subject of scopes) {
    const fb = factsOf(before, subject);
    const fa = factsOf(after, subject);
    for (const key of new Set([...fb.keys(), ...fa.keys()])) {
      let b = fb.get(key)?.value;
      let a = fa.get(key)?.value;
      if (b === a) continue;
      const oneSide =
        b === undefined ? resolvedOneSide(key, before) : a === undefined ? resolvedOneSide(key, after) : null;
      if (oneSide === 'unknown') continue;
      if (oneSide === 'absent') [b, a] = [b ?? null, a ?? null];
      const recorded = b === undefined ? 'after' : a === undefined ? 'before' : 'both';
      const blocking = recorded === 'both' && (fb.get(key)?.blocking ?? fa.get(key)?.blocking ?? true);
      const id = JSON.stringify([key, b, a]);
      const d = found.get(id) ?? { key, before: b ?? null, after: a ?? null, subjects: [], blocking, recorded };
      if (subject) d.subjects!.push(subject);
      found.set(id, d);
    }
  }
  const all = [...found.values()].map((d) =>
    d.subjects!.length === 0 || d.subjects!.length === scopes.length ? { ...d, subjects: null } : d,
  );
  return all.sort(
    (x, y) => Number(y.blocking) - Number(x.blocking) || Number(x.recorded !== 'both') - Number(y.recorded !== 'both'),
  );
}

function first(values: unknown[]): Fact {
  for (const v of values) if (v !== undefined) return text(v);
  return undefined;
}

function text(v: unknown): Fact {
  if (v === undefined) return undefined;
  if (v === null) return null;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}
