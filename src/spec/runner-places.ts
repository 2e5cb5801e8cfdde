// Runners a spec declares: never a built-in's name, and only directories inside the spec's tree or an
// allowed directory. Checked before any manifest.json is read from them.
import { diag, ptr, type Diagnostic } from './diagnostics.ts';
import { positionOf } from './document.ts';
import { builtinRunnerDirs } from './manifests.ts';
import { BUILTIN_RUNNERS } from '../repository.ts';
import { allowedRoots, describeRoots, leavesRoots } from './places.ts';
import type { Spec } from './types.ts';

/** Problems with the spec's own `runners:` entries; empty when every one may be read. */
export function checkRunnerPlaces(spec: Spec, env: NodeJS.ProcessEnv = process.env): Diagnostic[] {
  const out: Diagnostic[] = [];
  const builtins = Object.keys(builtinRunnerDirs());
  // A user's runner folder may also sit beside the built-in ones, in this checkout's runners/.
  const allowed = allowedRoots(spec.file, env);
  const roots = [...allowed, BUILTIN_RUNNERS];
  for (const id of Object.keys(spec.data.runners ?? {})) {
    const p = ptr('runners', id);
    const at = positionOf(spec.positions, p, spec.file);
    if (builtins.includes(id)) {
      out.push(
        diag(
          'error',
          'runner-shadows-builtin',
          positionOf(spec.positions, p, spec.file, true),
          p,
          `runner '${id}' is the name of a runner benchgrid ships (${builtinRunnerDirs()[id]}); a spec may add runners, not replace one.`,
          'Give your runner another name and point its tools at it (docs/adding-a-tool.md).',
        ),
      );
      continue;
    }
    const why = leavesRoots(spec.runners[id], roots);
    if (why)
      out.push(
        diag(
          'error',
          'runner-outside',
          at,
          p,
          `runner '${id}' is ${why} ${describeRoots(allowed)} and ${BUILTIN_RUNNERS}.`,
          'Keep runner directories beside the spec or in runners/, or allow their directory in $BENCHGRID_ALLOW_DIRS (docs/spec.md).',
        ),
      );
  }
  return out;
}
