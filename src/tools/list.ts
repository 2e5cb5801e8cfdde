// Every adapter benchgrid can run, read statically: the runners' manifests (built in, a spec's own, and
// folders a user put in runners/ or in the project's specs/runners/), each adapter's library, the releases installed in the cached
// environments, and the contracts it implements. No interpreter is started.
import fs from 'node:fs';
import path from 'node:path';
import { cacheDir } from '../env/build.ts';
import { builtinRunnerDirs, projectRunnerFolders, readManifest, userRunnerFolders } from '../spec/manifests.ts';
import type { Spec } from '../spec/types.ts';

/** One adapter as `benchgrid tools` lists it. */
export interface ToolListing {
  runner: string;
  /** built in, declared by the spec, or a folder of runners/ or specs/runners/ that no spec here declares */
  origin: 'builtin' | 'spec' | 'user-folder';
  /** The runner's directory. */
  dir: string;
  adapter: string;
  module: string;
  library: string | null;
  contracts: string[];
  /** Subject builders it is limited to (TransformerLens: decoders); null: any. */
  builders: string[] | null;
  /** Installed releases of the library: environment name -> version, from the cached environments. */
  installed: Record<string, string>;
  /** With a spec: the release its environment pins (`name==X`), and the tool ids that use this adapter. */
  pinned: string | null;
  declared_as: string[];
}

/** PEP 503 normalisation, which dist-info directory names follow with `_`. */
const normal = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '_');

/** Installed distributions of one environment directory: normalised name -> version. */
function installedIn(envDir: string): Map<string, string> {
  const out = new Map<string, string>();
  let libs: string[] = [];
  try {
    libs = fs.readdirSync(path.join(envDir, 'lib')).filter((d) => d.startsWith('python'));
  } catch {
    return out;
  }
  for (const lib of libs) {
    let entries: string[] = [];
    try {
      entries = fs.readdirSync(path.join(envDir, 'lib', lib, 'site-packages'));
    } catch {
      continue;
    }
    for (const e of entries) {
      const m = /^(.+)-([^-]+)\.dist-info$/.exec(e);
      if (m) out.set(normal(m[1]), m[2]);
    }
  }
  return out;
}

/** The cached environments: `<id>-<key>` directories with a marker, as name -> installed distributions. */
function cachedEnvironments(only: Set<string> | null): Map<string, Map<string, string>> {
  const root = path.join(cacheDir(), 'envs');
  const out = new Map<string, Map<string, string>>();
  let names: string[] = [];
  try {
    names = fs.readdirSync(root);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    const m = /^(.+)-[0-9a-f]{16}$/.exec(name);
    if (!m || !fs.existsSync(path.join(root, name, 'benchgrid-env.json'))) continue;
    if (only && !only.has(name)) continue;
    out.set(m[1], installedIn(path.join(root, name)));
  }
  return out;
}

/** The version a requirement list pins a distribution to (`name==X` or `name===X`), else null. */
export function pinnedVersion(requirements: string[], library: string): string | null {
  for (const r of requirements) {
    const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*===?\s*([^\s;,]+)/.exec(r);
    if (m && normal(m[1]) === normal(library)) return m[2];
  }
  return null;
}

/**
 * Every adapter, built-in runners first. With a spec, its own runners too, the release its environments
 * pin and the tool ids declared on each adapter; `envDirs` limits the installed versions to the spec's
 * built environments (directory names under the cache), else every cached environment is read.
 */
export function listTools(spec: Spec | null, envDirs: Set<string> | null = null): ToolListing[] {
  const runners: [string, string, ToolListing['origin']][] = [
    ...Object.entries(builtinRunnerDirs()).map(
      ([n, d]) => [n, d, 'builtin'] as [string, string, ToolListing['origin']],
    ),
    ...Object.entries(spec?.runners ?? {})
      .filter(([n]) => !builtinRunnerDirs()[n])
      .map(([n, d]) => [n, d, 'spec'] as [string, string, ToolListing['origin']]),
  ];
  const listed = new Set(runners.map(([, d]) => path.resolve(d)));
  for (const [n, d] of [...Object.entries(userRunnerFolders()), ...Object.entries(projectRunnerFolders())]) {
    if (listed.has(path.resolve(d))) continue;
    listed.add(path.resolve(d));
    runners.push([n, d, 'user-folder']);
  }
  const envs = cachedEnvironments(envDirs);
  const out: ToolListing[] = [];
  for (const [runner, dir, origin] of runners) {
    const m = readManifest(dir);
    if (m instanceof Error) continue;
    for (const [adapter, a] of Object.entries(m.adapters)) {
      const installed: Record<string, string> = {};
      if (a.library)
        for (const [env, dists] of envs)
          if (dists.has(normal(a.library))) installed[env] = dists.get(normal(a.library))!;
      const tools = Object.values(spec?.tools ?? {}).filter(
        (t) => t.version === null && t.runner === runner && t.adapter === adapter,
      );
      const pins = a.library ? pinsOf(spec, tools, a.library) : [];
      out.push({
        runner,
        origin,
        dir,
        adapter,
        module: a.module,
        library: a.library,
        contracts: a.contracts,
        builders: a.builders,
        installed,
        pinned: pins.length ? pins.join(', ') : null,
        declared_as: tools.map((t) => t.id),
      });
    }
  }
  return out;
}

/**
 * The releases of `library` a spec would measure: a versioned tool's declared releases, else the pin in
 * its environment's requirements; for an adapter no tool is declared on, the default environment's pin
 * (what declaring one would measure).
 */
function pinsOf(spec: Spec | null, tools: Spec['tools'][string][], library: string): string[] {
  if (!spec) return [];
  const pin = (env: string) => pinnedVersion(spec.environments[env]?.requirements ?? [], library);
  const pins =
    tools.length === 0
      ? [pin(spec.defaultEnvironment)]
      : tools.flatMap((t) => (t.versions.length ? t.versions : [pin(t.environment)]));
  return [...new Set(pins.filter((v): v is string => v !== null))];
}
