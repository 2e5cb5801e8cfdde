// Containment of the paths a spec names (`extends`, `runners`): they stay in the spec's directory tree
// or in a directory the user allowed with $BENCHGRID_ALLOW_DIRS (docs/spec.md, docs/security.md).
import fs from 'node:fs';
import path from 'node:path';
import { inside } from '../util/files.ts';

/** The environment variable holding extra allowed directories, separated like PATH. */
export const ALLOW_DIRS_VAR = 'BENCHGRID_ALLOW_DIRS';

/** The directories a spec's paths may lead into: the top spec's directory, then the allow-list. */
export function allowedRoots(topFile: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const extra = (env[ALLOW_DIRS_VAR] ?? '')
    .split(path.delimiter)
    .filter((d) => d.trim() !== '')
    .map((d) => path.resolve(d));
  return [path.dirname(path.resolve(topFile)), ...extra];
}

export { inside };

/**
 * Why `file` is in none of `roots` ('outside', or 'through a symbolic link, outside'), or undefined
 * when it is in one. The lexical check covers files read from git; the real path covers links on disk.
 */
export function leavesRoots(file: string, roots: string[]): string | undefined {
  if (!roots.some((r) => inside(file, r))) return 'outside';
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return undefined; // not on disk (e.g. read from git): the lexical check is the whole check
  }
  const realRoots = roots.flatMap((r) => {
    try {
      return [fs.realpathSync(r)];
    } catch {
      return [];
    }
  });
  return realRoots.some((r) => inside(real, r)) ? undefined : 'through a symbolic link, outside';
}

/** How a refusal names the roots: "the spec's directory /a/b (or $BENCHGRID_ALLOW_DIRS: /c)". */
export function describeRoots(roots: string[]): string {
  const [own, ...extra] = roots;
  return `the spec's directory ${own}${extra.length ? ` and $${ALLOW_DIRS_VAR} (${extra.join(', ')})` : ''}`;
}
