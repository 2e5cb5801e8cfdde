// `env list` without starting anything: the cache is read, no interpreter runs. Which
// interpreter a name like python3 stands for is only learnt when `env build` or `run` starts it.
import fs from 'node:fs';
import path from 'node:path';
import type { Environment, PackageIndex } from '../spec/types.ts';
import { cacheDir } from './build.ts';
import { indexIdentity } from './pip-index.ts';

/** One cached build of an environment, as its marker file describes it. */
export interface CachedBuild {
  dir: string;
  python: string;
  interpreter: { path: string; version: string };
}

/** A spec environment and the cached builds whose requirements and package index equal its own. */
export interface ListedEnv {
  env: Environment;
  builds: CachedBuild[];
}

/** The cached builds of each environment; reads marker files only. */
export function listEnvs(envs: Environment[]): ListedEnv[] {
  const root = path.join(cacheDir(), 'envs');
  const names = fs.existsSync(root) ? fs.readdirSync(root) : [];
  return envs.map((env) => {
    const want = JSON.stringify([...env.requirements].sort());
    const index = sameIndex(indexIdentity(env.index).index);
    const builds: CachedBuild[] = [];
    for (const name of names) {
      // Every regex character escaped: a release's environment id holds `+` (main+torchlens-2.35.4).
      if (!new RegExp(`^${env.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-[0-9a-f]{16}$`).test(name)) continue;
      const marker = readMarker(path.join(root, name, 'benchgrid-env.json'));
      if (!marker || JSON.stringify([...marker.requirements].sort()) !== want || sameIndex(marker.index) !== index)
        continue;
      builds.push({
        dir: path.join(root, name),
        python: path.join(root, name, 'bin', 'python'),
        interpreter: marker.interpreter,
      });
    }
    return { env, builds };
  });
}

/** An index (a marker's, or a spec's) as one comparable string; a marker without one was built with none. */
function sameIndex(index: unknown): string {
  const i = (index ?? {}) as Partial<Record<keyof PackageIndex, unknown>>;
  return JSON.stringify([i.index_url ?? null, i.extra_index_urls ?? [], i.find_links ?? []]);
}

function readMarker(
  file: string,
): { requirements: string[]; index: unknown; interpreter: { path: string; version: string } } | undefined {
  try {
    const m: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (m === null || typeof m !== 'object') return undefined;
    const { requirements, interpreter, index } = m as {
      requirements?: unknown;
      index?: unknown;
      interpreter?: { path?: unknown; version?: unknown };
    };
    if (!Array.isArray(requirements) || !requirements.every((r) => typeof r === 'string')) return undefined;
    if (typeof interpreter?.path !== 'string' || typeof interpreter.version !== 'string') return undefined;
    return { requirements, index, interpreter: { path: interpreter.path, version: interpreter.version } };
  } catch {
    return undefined;
  }
}
