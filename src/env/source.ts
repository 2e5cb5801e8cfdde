// A tool installed from its source into a layer over the tool's environment (`run --tool-source`,
// bench-change): the source's files are written into a scratch directory (src/source/snapshot.ts) and
// the base's pip installs that directory, as `pip install DIR` would, with its build backend and its
// dependencies (what the spec pins is held at its version). pip gets an argument list; nothing goes
// through a shell.
import path from 'node:path';
import { UserError } from '../errors.ts';
import { revisionLabel } from '../source/resolve.ts';
import { materialise } from '../source/snapshot.ts';
import type { LayerSource } from '../spec/types.ts';
import { normalisePackage } from '../spec/versions.ts';
import type { LayerInstall } from './layered.ts';

/** How a source layer is installed and what its marker records. */
export function sourceInstall(src: LayerSource): LayerInstall {
  const s = src.source;
  return {
    packages: [src.package],
    what: `${src.package} from ${s.text} (${revisionLabel(s)})`,
    args: async (work) => [await materialise(s, path.join(work, 'source'))],
    record: (installed) => ({
      source: {
        text: s.text,
        commit: s.commit,
        dirty: s.dirty,
        digest: s.digest,
        version: builtVersion(src, installed),
      },
    }),
  };
}

/** The version of the package the build installed into the layer; a build that installed another project is refused. */
export function builtVersion(src: LayerSource, installed: string[]): string {
  const want = normalisePackage(src.package);
  const line = installed.find((l) => normalisePackage(l.split('==')[0]) === want);
  if (line) return line.slice(line.indexOf('==') + 2);
  const names = installed.map((l) => l.split('==')[0]).join(', ') || 'nothing';
  throw new UserError(
    `the source at ${src.source.text} installed ${names}, not ${src.package}: is it the tool's own project?`,
  );
}
