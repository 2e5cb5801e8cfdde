// Semantic rules of environments: one declared `over` another names a declared environment, without a loop,
// and takes its base's interpreter; requirements name packages of the index, never a source (a URL, a file,
// a git repository): only the command line names a source (run --tool-source, bench-change). A package
// index's directory exists; what the schema refuses in an index value is worded in src/spec/package-index.ts.
import fs from 'node:fs';
import path from 'node:path';
import { diag, ptr, suggestion, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { baseChain } from '../spec/layers.ts';
import { INDEX_KEYS, localDirectory, resolveLocation } from '../spec/package-index.ts';
import type { RuleInput } from './rules.ts';

/** `over` names another declared environment, the chain of bases ends, and a layer sets no `python` of its own. */
export const environmentLayers = ({ spec }: RuleInput): Diagnostic[] => {
  const out: Diagnostic[] = [];
  const declared = spec.data.environments ?? {};
  const ids = Object.keys(declared);
  const at = (p: string) => positionOf(spec.positions, p, spec.file);
  for (const [id, e] of Object.entries(declared)) {
    if (e.over === undefined) continue;
    const p = ptr('environments', id, 'over');
    if (!declared[e.over])
      out.push(
        diag(
          'error',
          'unknown-environment',
          at(p),
          p,
          `environment '${id}' is layered over '${e.over}', which is not declared.`,
          suggestion(
            e.over,
            ids.filter((x) => x !== id),
            'environment',
          ),
        ),
      );
    else if (baseChain(declared, id) === null)
      out.push(
        diag(
          'error',
          'environment-loop',
          at(p),
          p,
          `environment '${id}' is layered over itself (through 'over').`,
          'Make one environment of the chain a full one: give it torch and no `over`.',
        ),
      );
    if (e.python !== undefined) {
      const q = ptr('environments', id, 'python');
      out.push(
        diag(
          'error',
          'layer-python',
          at(q),
          q,
          `environment '${id}' is layered over '${e.over}', so it runs the base's interpreter; it cannot set its own python.`,
          `Remove 'python' here, or set it on '${e.over}'.`,
        ),
      );
    }
  }
  return out;
};

/** `name @ URL` (PEP 508's direct reference): what pip would fetch from wherever the URL says, or build from a directory. */
const DIRECT_REFERENCE = /^[^;@]*@/;

/** A spec's requirement names a package and its versions; a source goes on the command line. */
export const requirementSources = ({ spec }: RuleInput): Diagnostic[] => {
  const out: Diagnostic[] = [];
  for (const [id, e] of Object.entries(spec.data.environments ?? {})) {
    (e.requirements ?? []).forEach((r, i) => {
      if (!DIRECT_REFERENCE.test(r)) return;
      const p = ptr('environments', id, 'requirements', String(i));
      out.push(
        diag(
          'error',
          'requirement-source',
          positionOf(spec.positions, p, spec.file),
          p,
          `requirement '${r}' names a source (${r.split('@')[1].trim().split(/[:/]/)[0]}:...): pip would fetch or build whatever it points at, and a spec names only packages of the index.`,
          'Name the package and its version (pkg==1.2); to measure a tool built from a directory or a git revision, give it on the command line: run --tool-source DIR or git:REV (docs/ci.md).',
        ),
      );
    });
  }
  return out;
};

/**
 * A local directory an environment's index keys name exists and is a directory (pip ignores a missing
 * --find-links directory with a warning). Only that is looked at: nothing is listed, nothing fetched.
 */
export const indexDirectories = ({ spec }: RuleInput): Diagnostic[] => {
  const out: Diagnostic[] = [];
  const specDir = path.dirname(spec.file);
  for (const [id, e] of Object.entries(spec.data.environments ?? {})) {
    for (const key of INDEX_KEYS) {
      const value = e[key];
      const written =
        value === undefined
          ? []
          : Array.isArray(value)
            ? value.map((v, i) => ({ v, p: ptr('environments', id, key, i) }))
            : [{ v: value, p: ptr('environments', id, key) }];
      for (const { v, p } of written) {
        const dir = localDirectory(resolveLocation(v, specDir));
        if (dir === null) continue;
        const stat = fs.statSync(dir, { throwIfNoEntry: false });
        if (stat?.isDirectory()) continue;
        const what = stat ? 'is not a directory' : 'does not exist';
        out.push(
          diag(
            'error',
            'index-directory',
            positionOf(spec.positions, p, spec.file),
            p,
            `${key} names the directory ${dir}, which ${what}.`,
            `Create it (${key === 'find_links' ? 'a directory of wheels' : 'an index laid out as PEP 503 says: a directory per project, holding its wheels'}), or fix the path: a relative one is relative to the spec's directory.`,
          ),
        );
      }
    }
  }
  return out;
};
