// `benchgrid env list|build <spec...>`: the cached Python environments of specs.
import { buildEnv, resolveEnv } from '../run/environments.ts';
import { loadDeclaredOrExit } from './load-or-exit.ts';

/** Options of `env`. */
export interface EnvOptions {
  json?: boolean;
}

/** Lists (with cache state) or builds the environments the given specs declare. */
export async function env(action: 'list' | 'build', files: string[], opts: EnvOptions): Promise<void> {
  const seen = new Map<string, Awaited<ReturnType<typeof resolveEnv>>>();
  for (const file of files) {
    const spec = await loadDeclaredOrExit(file);
    for (const e of Object.values(spec.environments)) {
      const r = await resolveEnv(e);
      if (!seen.has(r.dir)) seen.set(r.dir, r);
    }
  }
  const all = [...seen.values()];
  if (action === 'build') {
    for (const r of all) {
      const built = await buildEnv(r, (s) => process.stderr.write(`benchgrid: ${s}\n`));
      process.stderr.write(`benchgrid: environment '${r.env.id}' ready: ${built.python}\n`);
    }
    return;
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(all.map((r) => ({ id: r.env.id, dir: r.dir, python: r.python, built: r.built, interpreter: r.interpreter, requirements: r.env.requirements })), null, 2) + '\n');
    return;
  }
  for (const r of all) {
    process.stdout.write(`${r.env.id}\t${r.built ? 'built' : 'missing'}\t${r.dir}\n  python ${r.interpreter.version} (${r.interpreter.path}); ${r.env.requirements.join(', ') || 'no requirements'}\n`);
  }
}
