// `benchgrid env list|build <spec...>`: the cached Python environments of specs.
import { listEnvs } from '../run/env-list.ts';
import { buildEnv, resolveEnv } from '../run/environments.ts';
import type { Environment } from '../spec/types.ts';
import { loadDeclaredOrExit } from './load-or-exit.ts';

/** Options of `env`. */
export interface EnvOptions {
  json?: boolean;
}

/** Lists (with cache state) or builds the environments the given specs declare. */
export async function env(action: 'list' | 'build', files: string[], opts: EnvOptions): Promise<void> {
  if (action === 'list') return list(files, opts);
  const seen = new Map<string, Awaited<ReturnType<typeof resolveEnv>>>();
  for (const file of files) {
    const spec = await loadDeclaredOrExit(file);
    for (const e of Object.values(spec.environments)) {
      const r = await resolveEnv(e);
      if (!seen.has(r.dir)) seen.set(r.dir, r);
    }
  }
  for (const r of seen.values()) {
    const built = await buildEnv(r, (s) => process.stderr.write(`benchgrid: ${s}\n`));
    process.stderr.write(`benchgrid: environment '${r.env.id}' ready: ${built.python}\n`);
  }
}

/** Lists each environment with its cached builds; starts no interpreter (docs/security.md). */
async function list(files: string[], opts: EnvOptions): Promise<void> {
  const envs = new Map<string, Environment>();
  for (const file of files) for (const e of Object.values((await loadDeclaredOrExit(file)).environments)) envs.set(JSON.stringify([e.id, e.python, [...e.requirements].sort()]), e);
  const listed = listEnvs([...envs.values()]);
  if (opts.json) {
    const rows = listed.map(({ env: e, builds }) => ({ id: e.id, python: e.python, requirements: e.requirements, built: builds.length > 0, builds }));
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return;
  }
  for (const { env: e, builds } of listed) {
    const where = builds.map((b) => `\n  built with python ${b.interpreter.version} (${b.interpreter.path}): ${b.dir}`).join('');
    process.stdout.write(`${e.id}\t${builds.length ? 'built' : 'missing'}\tpython: ${e.python}; ${e.requirements.join(', ') || 'no requirements'}${where}\n`);
  }
}
