// Semantic rules of the version axis: a versioned tool needs a package, is never a reference, and a reason's
// version range names a versioned tool. Pure, like the rules of rules.ts (registered there).
import { diag, ptr, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import type { Manifest } from '../spec/manifests.ts';
import type { Spec } from '../spec/types.ts';
import type { Plan } from '../plan/expand.ts';
import { packageOf } from '../spec/versions.ts';

interface Input {
  spec: Spec;
  manifests: Record<string, Manifest | Error>;
  plan: Plan;
}

/** Every rule of the version axis. */
export function versionRules({ spec }: Input): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (pointer: string) => positionOf(spec.positions, pointer, spec.file);
  const versioned = Object.values(spec.tools).filter((t) => t.versions.length > 0 && t.version === null);
  for (const t of versioned) {
    const p = ptr('tools', t.id, 'versions');
    if (packageOf(t, spec.runners) === null) {
      out.push(
        diag(
          'error',
          'versions-without-package',
          at(p),
          p,
          `tool '${t.id}' declares versions, but its adapter '${t.adapter}' names no library to pin.`,
          'Add `package: NAME` (the package index name) to the tool.',
        ),
      );
    } else if (!spec.environments[t.environment]) {
      // Without a declared environment every release would run in the same interpreter: not a version axis.
      out.push(
        diag(
          'error',
          'versions-without-environment',
          at(p),
          p,
          `tool '${t.id}' declares versions, but its environment '${t.environment}' is not declared, so there is nothing to pin each release over.`,
          'Declare the environment under `environments:` with its requirements (torch, ...).',
        ),
      );
    }
  }
  const ids = new Set(versioned.map((t) => t.id));
  for (const g of spec.groups) {
    if (g.reference !== null && ids.has(g.reference)) {
      const p = ptr('groups', g.id, 'reference');
      out.push(
        diag(
          'error',
          'versioned-reference',
          at(p),
          p,
          `the reference tool '${g.reference}' declares versions; every cell needs one reference.`,
          'Use an unversioned tool (hooks) as the reference, or declare one release of it as its own tool.',
        ),
      );
    }
    for (const r of g.unsupported) {
      if (r.versions === null) continue;
      const named = r.tools ?? g.tools;
      if (named.some((t) => ids.has(t))) continue;
      const p = `${r.pointer}/versions`;
      out.push(
        diag(
          'error',
          'versions-without-versioned-tool',
          at(p),
          p,
          `this reason has a version range (${r.versions}) but names no tool that declares versions.`,
          'Name the versioned tool in `tools`, or remove `versions`.',
        ),
      );
    }
  }
  return out;
}
