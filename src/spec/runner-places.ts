// Runners a spec declares: never a built-in's name, and only directories inside the spec's tree or an
// allowed directory (issue 15). Checked before any manifest.json is read from them.
import { diag, ptr, type Diagnostic } from './diagnostics.ts';
import { positionOf } from './document.ts';
import { builtinRunnerDirs } from './manifests.ts';
import { allowedRoots, describeRoots, leavesRoots } from './places.ts';
import type { Spec } from './types.ts';

/** Problems with the spec's own `runners:` entries; empty when every one may be read. */
export function checkRunnerPlaces(spec: Spec, env: NodeJS.ProcessEnv = process.env): Diagnostic[] {
  const out: Diagnostic[] = [];
  const builtins = Object.keys(builtinRunnerDirs());
  const roots = allowedRoots(spec.file, env);
  for (const id of Object.keys(spec.data.runners ?? {})) {
    const p = ptr('runners', id);
    const at = positionOf(spec.positions, p, spec.file);
    if (builtins.includes(id)) {
      out.push(diag('error', 'runner-shadows-builtin', positionOf(spec.positions, p, spec.file, true), p, `runner '${id}' is a built-in runner's name; a spec may add runners, not replace one.`, 'Give the runner another name and point its tools at it.'));
      continue;
    }
    const why = leavesRoots(spec.runners[id], roots);
    if (why) out.push(diag('error', 'runner-outside', at, p, `runner '${id}' is ${why} ${describeRoots(roots)}.`, 'Keep runner directories beside the spec, or allow their directory in $BENCHGRID_ALLOW_DIRS (docs/spec.md).'));
  }
  return out;
}
