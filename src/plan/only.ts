// `--only GLOB[,GLOB]`: selects cells by glob on their ids.
import picomatch from 'picomatch';
import { UserError } from '../errors.ts';

/** A predicate on cell ids from a comma-separated list of globs; every glob must match something. */
export function onlyFilter(globs: string | undefined, ids: string[]): (id: string) => boolean {
  if (!globs) return () => true;
  const patterns = globs.split(',').map((g) => g.trim()).filter(Boolean);
  if (patterns.length === 0) throw new UserError(`--only got no glob (got ${JSON.stringify(globs)}). Example: --only 'A/*/hooks/*'.`);
  const matchers = patterns.map((p) => ({ p, m: picomatch(p, { dot: true }) }));
  for (const { p, m } of matchers) {
    if (!ids.some((id) => m(id))) {
      throw new UserError(`--only '${p}' matches no cell. Cell ids look like GROUP/contract/tool/subject, e.g. '${ids[0] ?? 'A/single_module_output/hooks/resnet18'}'.`);
    }
  }
  return (id) => matchers.some(({ m }) => m(id));
}
