// Pure rules an ingest must pass before shards merge into one results file. Each returns the problems
// it found as lines naming the bundles involved; ingest refuses when any rule has one.
import type { ProcessRecord } from '../../records/journal.ts';
import type { BundleManifest, DriverProcess, DriverRecord } from './manifest.ts';

/** One bundle as ingest read it. */
export interface ReadBundle {
  dir: string;
  manifest: BundleManifest;
  drivers: DriverRecord[];
  processes: DriverProcess[];
  /** sha256 of the bundle's spec.json. */
  specDigest: string;
}

const LIST = 12;

/** "a, b, c and 4 more". */
export function listSome(items: string[], n = LIST): string {
  return items.length <= n ? items.join(', ') : `${items.slice(0, n).join(', ')} and ${items.length - n} more`;
}

/** `dir (shard i/N)`. */
export function nameOf(b: ReadBundle): string {
  return `${b.dir} (shard ${b.manifest.shard.index + 1}/${b.manifest.shard.count})`;
}

/** Every bundle is of one spec version: manifest, spec.json and the driver sessions agree. */
export function specVersions(bundles: ReadBundle[]): string[] {
  const problems: string[] = [];
  for (const b of bundles) {
    if (b.specDigest !== b.manifest.spec.digest)
      problems.push(
        `${nameOf(b)}: spec.json was edited (its digest ${b.specDigest.slice(0, 12)} is not the manifest's ${b.manifest.spec.digest.slice(0, 12)}).`,
      );
    const other = b.drivers.find((d) => d.spec_digest !== b.manifest.spec.digest);
    if (other)
      problems.push(
        `${nameOf(b)}: its journal was written by a driver of spec version ${other.spec_digest.slice(0, 12)}, not ${b.manifest.spec.digest.slice(0, 12)}.`,
      );
  }
  const byDigest = groupBy(bundles, (b) => `${b.manifest.spec.name} ${b.manifest.spec.digest.slice(0, 12)}`);
  if (byDigest.size > 1) {
    problems.push(`the bundles are of ${byDigest.size} spec versions; results of two spec versions cannot be merged:`);
    for (const [version, bs] of byDigest) problems.push(`  spec ${version}: ${listSome(bs.map(nameOf))}`);
  }
  return problems;
}

/** Every bundle was cut by the same export: device, --only, overrides and shard count. */
export function exportParameters(bundles: ReadBundle[]): string[] {
  const key = (b: ReadBundle) =>
    JSON.stringify({
      device: b.manifest.device,
      only: b.manifest.only,
      overrides: b.manifest.overrides,
      shards: b.manifest.shard.count,
      schedule: b.manifest.schedule ?? null,
    });
  const groups = groupBy(bundles, key);
  if (groups.size <= 1) return [];
  const lines = [
    'the bundles come from different exports (device, --only, overrides, shard count or schedule differ):',
  ];
  for (const [k, bs] of groups) lines.push(`  ${k}: ${listSome(bs.map(nameOf))}`);
  return lines;
}

/** No shard and no cell process comes twice. */
export function duplicates(bundles: ReadBundle[]): string[] {
  const problems: string[] = [];
  for (const [shard, bs] of groupBy(bundles, (b) => String(b.manifest.shard.index + 1))) {
    if (bs.length > 1) problems.push(`shard ${shard} is given ${bs.length} times: ${listSome(bs.map((b) => b.dir))}`);
  }
  const owners = new Map<string, string[]>();
  for (const b of bundles) for (const j of b.manifest.jobs) owners.set(j.key, [...(owners.get(j.key) ?? []), b.dir]);
  const dup = [...owners].filter(([, dirs]) => dirs.length > 1);
  if (dup.length > 0)
    problems.push(
      `${dup.length} cell process(es) appear in more than one bundle: ${listSome(
        dup.map(([k, dirs]) => `${k} (${dirs.join(', ')})`),
        5,
      )}`,
    );
  return problems;
}

/** The problems that stop bundles from merging at all, found before their spec is loaded: the three rules above. */
export function mergeProblems(bundles: ReadBundle[]): string[] {
  return [...specVersions(bundles), ...exportParameters(bundles), ...duplicates(bundles)];
}

/**
 * Journal lines no manifest asked for (`problems`), and processes the spec needs that no bundle has a
 * journal line for (`gaps`, which --partial accepts; `missing` lists their keys).
 */
export function coverage(
  bundles: ReadBundle[],
  expected: string[],
): { problems: string[]; gaps: string[]; missing: string[] } {
  const problems: string[] = [];
  const gaps: string[] = [];
  const planned = new Set(bundles.flatMap((b) => b.manifest.jobs.map((j) => j.key)));
  const ran = new Set(bundles.flatMap((b) => b.processes.map((p) => p.key)));
  for (const b of bundles) {
    const mine = new Set(b.manifest.jobs.map((j) => j.key));
    const stray = b.processes.filter((p) => !mine.has(p.key)).map((p) => p.key);
    if (stray.length > 0)
      problems.push(
        `${nameOf(b)}: its journal has ${stray.length} process(es) its manifest does not list: ${listSome(stray, 5)}`,
      );
    problems.push(...journalDisagrees(b));
  }
  const missing = expected.filter((k) => !ran.has(k));
  const notExported = missing.filter((k) => !planned.has(k));
  const notRun = missing.filter((k) => planned.has(k));
  if (notExported.length > 0) {
    const shards = bundles[0]?.manifest.shard.count ?? 0;
    const have = [...new Set(bundles.map((b) => b.manifest.shard.index + 1))].sort((a, b) => a - b);
    const absent = Array.from({ length: shards }, (_, i) => i + 1).filter((i) => !have.includes(i));
    gaps.push(
      `${notExported.length} process(es) are in no given bundle${absent.length ? ` (shard(s) ${absent.join(', ')} of ${shards} not given)` : ''}: ${listSome(notExported, 5)}`,
    );
  }
  if (notRun.length > 0)
    gaps.push(
      `${notRun.length} process(es) have not run yet (run driver.py again to finish them): ${listSome(notRun, 5)}`,
    );
  return { problems, gaps, missing };
}

/**
 * Journal lines whose cell, kind or index differ from the manifest's job of the same key: an edited
 * journal would otherwise drop its measurements without a word.
 */
function journalDisagrees(b: ReadBundle): string[] {
  const jobs = new Map(b.manifest.jobs.map((j) => [j.key, j]));
  const bad = b.processes.filter((p) => {
    const j = jobs.get(p.key);
    return j !== undefined && (j.cell !== p.cell || j.kind !== p.kind || j.index !== p.index);
  });
  if (bad.length === 0) return [];
  const show = bad.map((p) => `${p.key} (journal: ${p.cell} ${p.kind}#${p.index})`);
  return [
    `${nameOf(b)}: ${bad.length} journal line(s) disagree with the manifest about their cell, kind or index: ${listSome(show, 5)}`,
  ];
}

/** A measured process with the bundle it came from and the driver's machine. */
export interface Sourced {
  bundle: ReadBundle;
  /** The spec environment (virtual environment) the process ran in. */
  environment: string;
  record: ProcessRecord;
}

/**
 * The results were measured in one environment: one machine kind (device, GPU, CPU model) throughout,
 * and per spec environment one Python and torch stack and one version per tool library (a spec may
 * run some tools in environments of their own). Hostnames may differ (nodes of one cluster).
 */
export function environments(items: Sourced[]): string[] {
  const measured = items.flatMap((s) =>
    s.record.outcome.kind === 'result' ? [{ ...s, result: s.record.outcome.result }] : [],
  );
  const machine = (s: (typeof measured)[number]) => {
    const e = s.result.environment;
    return `device ${e.device ?? '?'}, gpu ${e.gpu_name ?? 'none'}, cpu ${s.bundle.drivers.at(-1)?.cpu_model ?? 'unknown'}`;
  };
  const stack = (s: (typeof measured)[number]) => {
    const v = s.result.versions;
    return `environment '${s.environment}': python ${v.python}, torch ${v.torch}, torchvision ${v.torchvision}, numpy ${v.numpy}, cuda ${s.result.environment.cuda ?? 'none'}`;
  };
  const problems = [
    ...mixed(measured, machine, 'machines', 'timings from different machines cannot be merged'),
    ...[...groupBy(measured, (s) => s.environment).values()].flatMap((group) =>
      mixed(
        group,
        stack,
        `software stacks in environment '${group[0].environment}'`,
        'timings from different stacks cannot be merged',
      ),
    ),
  ];
  const libraries = new Map<string, Map<string, string[]>>();
  for (const s of measured) {
    if (!s.result.versions.library) continue;
    const name = `${s.result.versions.library.name} (environment '${s.environment}')`;
    const version = String(s.result.versions.library.version);
    const per = libraries.get(name) ?? new Map<string, string[]>();
    per.set(version, [...new Set([...(per.get(version) ?? []), nameOf(s.bundle)])]);
    libraries.set(name, per);
  }
  for (const [name, per] of libraries) {
    if (per.size > 1)
      problems.push(
        `${name} has ${per.size} versions across the results: ${[...per].map(([v, bs]) => `${v} in ${listSome(bs, 3)}`).join('; ')}`,
      );
  }
  return problems;
}

/** When items fall into more than one signature: a headline and one line per signature with its bundles. */
function mixed<T extends { bundle: ReadBundle }>(
  items: T[],
  signature: (t: T) => string,
  what: string,
  why: string,
): string[] {
  const groups = groupBy(items, signature);
  if (groups.size <= 1) return [];
  const lines = [`the results come from ${groups.size} different ${what}; ${why}:`];
  for (const [sig, group] of groups) {
    const counts = [...groupBy(group, (s) => nameOf(s.bundle))].map(([b, xs]) => `${b} ${xs.length} process(es)`);
    lines.push(`  ${sig}: ${listSome(counts, 6)}`);
  }
  return lines;
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}
