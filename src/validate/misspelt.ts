// A typo in a declaration, reported at the declaration. When `tools:` declares `nnsigth` and the groups
// name `nnsight`, every use is an "unknown tool 'nnsight'" (did you mean 'nnsigth'?): the error lands
// on the group, which is right, and points the user at making it wrong too. Which spelling is the typo
// is told by what the names mean: a tool's name is its adapter's and a contract's its kind's unless
// the declaration says otherwise, so a declaration whose name means nothing while the name its uses
// spell does is the misspelt one. A subject's name means nothing: its uses outvote it, two or more
// places spelling it alike. Then the error is at the declaration, and the errors at its uses are
// folded under it; otherwise the uses keep their errors, with their did-you-mean.
import { didYouMean, diag, ptr, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { mentions } from '../spec/fold.ts';
import { contractFacts } from '../spec/contracts.ts';
import type { Manifest } from '../spec/manifests.ts';
import type { Spec } from '../spec/types.ts';
import { splitToolId } from '../spec/versions.ts';

/** The kinds of declaration a group names, by the section that declares them. */
const SECTIONS = { tool: 'tools', contract: 'contracts', subject: 'subjects' } as const;
type Noun = keyof typeof SECTIONS;

/** What the check needs: the spec, and the runners' manifests that give tool names a meaning. */
export interface Declarations {
  spec: Spec;
  manifests: Record<string, Manifest | Error>;
}

/** The undeclared name an `unknown tool|contract|subject 'NAME'` error is about. */
function unknownUse(d: Diagnostic): { noun: Noun; name: string } | undefined {
  const m = /^unknown (tool|contract|subject) '([^']+)'/.exec(d.message);
  return d.severity === 'error' && m && d.code === `unknown-${m[1]}` ? { noun: m[1] as Noun, name: m[2] } : undefined;
}

/**
 * How often the groups and the page name each name, keys of `cells` included, and each versioned tool
 * id's tool (`nnsight@0.8.1` names `nnsight`): a declaration they never name is used nowhere.
 */
export function namesUsed(spec: Spec): Map<string, number> {
  const out = new Map<string, number>();
  const count = (name: string) => out.set(name, (out.get(name) ?? 0) + 1);
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      count(v);
      const { tool, version } = splitToolId(v);
      if (version !== null) count(tool);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        count(k);
        walk(x);
      }
    }
  };
  walk(spec.data.groups);
  walk(spec.data.page);
  return out;
}

/** The diagnostics with each misspelt declaration's errors folded under one error at the declaration. */
export function foldMisspeltDeclarations(diagnostics: Diagnostic[], input: Declarations): Diagnostic[] {
  let out = diagnostics;
  let used: Map<string, number> | undefined;
  for (const d of diagnostics) {
    const use = unknownUse(d);
    if (!use || !out.includes(d)) continue;
    used ??= namesUsed(input.spec);
    const unused = Object.keys(input.spec.data[SECTIONS[use.noun]] ?? {}).filter((k) => !used!.has(k));
    const declared = didYouMean(use.name, unused);
    if (declared !== undefined && declarationIsWrong(use.noun, declared, use.name, input, used.get(use.name) ?? 0))
      out = fold(out, d, use.noun, use.name, declared, input.spec);
  }
  return out;
}

/** Whether the declaration `declared`, not the `uses` places that name `name`, holds the typo. */
function declarationIsWrong(
  noun: Noun,
  declared: string,
  name: string,
  { spec, manifests }: Declarations,
  uses: number,
): boolean {
  const meaning = (means: (n: string) => boolean) => (means(declared) ? false : means(name) ? true : uses >= 2);
  if (noun === 'tool' && spec.data.tools[declared]?.adapter === undefined) {
    const m = manifests[spec.tools[declared]?.runner ?? ''];
    if (m && !(m instanceof Error)) return meaning((n) => m.adapters[n] !== undefined);
  }
  if (noun === 'contract' && spec.data.contracts[declared]?.kind === undefined) {
    const facts = contractFacts(manifests);
    if (!(facts instanceof Error)) return meaning((n) => facts[n] !== undefined);
  }
  return uses >= 2;
}

function fold(
  diagnostics: Diagnostic[],
  use: Diagnostic,
  noun: Noun,
  name: string,
  declared: string,
  spec: Spec,
): Diagnostic[] {
  const pointer = ptr(SECTIONS[noun], declared);
  const at = positionOf(spec.positions, pointer, spec.file, true);
  // The use's own follow-ons, and whatever else names either spelling (the adapter `nnsigth` lacks).
  const named = (d: Diagnostic) =>
    d === use ||
    mentions(d.message, name) ||
    mentions(d.message, declared) ||
    mentions(d.hint, name) ||
    mentions(d.hint, declared);
  const follow = diagnostics
    .filter(named)
    .flatMap((d) => [withoutSpellings(d, name, declared), ...(d.follow_ons ?? [])])
    .sort((a, b) => a.line - b.line || a.col - b.col);
  const root = {
    ...diag(
      'error',
      'misspelt-declaration',
      at,
      pointer,
      `${noun} '${declared}' is declared here but used nowhere, while line ${use.line} uses '${name}', which is not declared.`,
      `Rename the declaration to '${name}'.`,
    ),
    follow_ons: follow,
  };
  return [...diagnostics.filter((d) => !named(d)), root];
}

/** A folded diagnostic, flat, without a hint that names either spelling (it would suggest the misspelt one). */
function withoutSpellings(d: Diagnostic, name: string, declared: string): Diagnostic {
  const { hint, follow_ons: _folded, ...rest } = d;
  return hint === undefined || mentions(hint, name) || mentions(hint, declared) ? rest : { ...rest, hint };
}
