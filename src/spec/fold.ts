// One root cause, one error: diagnostics caused by an unknown name are folded under the one that names it.
import type { Diagnostic } from './diagnostics.ts';

/** The misspelt name an `unknown <noun> 'NAME'` diagnostic reports, if it is one. */
function unknownName(d: Diagnostic): string | undefined {
  if (d.severity !== 'error' || !d.code.startsWith('unknown-')) return undefined;
  return /^unknown [\w ]+? '([^']+)'/.exec(d.message)?.[1];
}

/** Whether `text` names `name` as a whole token (so `single_modul_output` is not found in `single_module_output`). */
export function mentions(text: string | undefined, name: string): boolean {
  if (!text) return false;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\w])${escaped}([^\\w]|$)`).test(text);
}

/**
 * Folds follow-on diagnostics under their root cause, keeping file order. A root cause is an `unknown
 * X 'NAME'` error; a follow-on is any other diagnostic whose message or hint names NAME (a cell of
 * the misspelt contract, a reason that no longer matches, a hint suggesting the misspelt name
 * itself). The first root that names NAME takes them; a hint that suggests a misspelt name is dropped.
 */
export function foldFollowOns(diagnostics: Diagnostic[]): Diagnostic[] {
  const roots = new Map<Diagnostic, string>();
  for (const d of diagnostics) {
    const name = unknownName(d);
    if (name !== undefined && ![...roots.values()].includes(name)) roots.set(d, name);
  }
  if (roots.size === 0) return diagnostics;
  const folded = new Map<Diagnostic, Diagnostic[]>([...roots.keys()].map((r) => [r, []]));
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    const root = roots.has(d)
      ? undefined
      : [...roots].find(([, name]) => mentions(d.message, name) || mentions(d.hint, name))?.[0];
    if (root) folded.get(root)!.push(withoutMisspeltHint(d, roots));
    else kept.push(d);
  }
  return kept.map((d) => {
    const follow = folded.get(d);
    return follow && follow.length > 0 ? { ...d, follow_ons: follow } : d;
  });
}

function withoutMisspeltHint(d: Diagnostic, roots: Map<Diagnostic, string>): Diagnostic {
  if (!d.hint || ![...roots.values()].some((name) => mentions(d.hint, name))) return d;
  const { hint: _dropped, ...rest } = d;
  return rest;
}
