// `--only GLOB[,GLOB]`: selects cells by glob on their ids.
import picomatch from 'picomatch';
import { UserError } from '../errors.ts';

/** Longest `--only` accepted (documented in docs/security.md); picomatch refuses 65,536 and more. */
export const MAX_ONLY_LENGTH = 4096;

/** A predicate on cell ids from a comma-separated list of globs; every glob must match something. */
export function onlyFilter(globs: string | undefined, ids: string[]): (id: string) => boolean {
  if (!globs) return () => true;
  if (globs.length > MAX_ONLY_LENGTH) throw new UserError(`--only is ${globs.length} characters long; at most ${MAX_ONLY_LENGTH} are accepted. Use shorter globs, e.g. 'A/*/hooks/*'.`);
  const patterns = globs.split(',').map((g) => g.trim()).filter(Boolean);
  if (patterns.length === 0) throw new UserError(`--only got no glob (got ${JSON.stringify(globs)}). Example: --only 'A/*/hooks/*'.`);
  const matchers = patterns.map((p) => ({ p, m: compile(p) }));
  for (const { p, m } of matchers) {
    if (!ids.some((id) => m(id))) {
      throw new UserError(`--only '${p}' matches no cell. Cell ids look like GROUP/contract/tool/subject, e.g. '${ids[0] ?? 'A/single_module_output/hooks/resnet18'}'.`);
    }
  }
  return (id) => matchers.some(({ m }) => m(id));
}

function compile(p: string): (id: string) => boolean {
  try {
    return picomatch(p, { dot: true });
  } catch (error) {
    throw new UserError(`--only '${p}' is not a glob picomatch can read (${error instanceof Error ? error.message : String(error)}). Example: --only 'A/*/hooks/*'.`);
  }
}
