// Semantic rules of a subject's model: a python builder names a function in a file of the spec's tree (or a
// module), weights and config_from are paths there (or a hub id already in the local cache), the builder
// takes the weights it is given, and inputs the builder returns come only from a python builder.
import fs from 'node:fs';
import path from 'node:path';
import { diag, ptr, type Diagnostic, type Pos } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { allowedRoots, describeRoots, leavesRoots } from '../spec/places.ts';
import { HUB_ID, isDeclared, STATE_DICT_EXTENSIONS } from '../spec/subjects.ts';
import { hubCached } from '../spec/hub-cache.ts';
import type { Spec, Subject, Weights } from '../spec/types.ts';
import type { RuleInput } from './rules.ts';

/** The problems of every declared subject's model (a subject of the dtype axis is its declared one's copy). */
export const subjectModels = ({ spec, options }: RuleInput): Diagnostic[] =>
  Object.values(spec.subjects)
    .filter(isDeclared)
    .flatMap((s) => modelProblems(spec, s, options?.allowDownloads ?? false));

/** What the checks of one subject's model share: where to report, the allowed roots, and the problems so far. */
interface ModelCheck {
  spec: Spec;
  s: Subject;
  at: (p: string) => Pos;
  roots: string[];
  out: Diagnostic[];
}

function modelProblems(spec: Spec, s: Subject, allowDownloads: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  const base = ptr('subjects', s.id, 'model');
  const at = (p: string) => positionOf(spec.positions, p, spec.file);
  const written = spec.data.subjects[s.id]?.model;
  const c: ModelCheck = { spec, s, at, roots: allowedRoots(spec.file), out };
  if (s.model.builder === 'python') pythonSourceProblems(c, base);
  if (s.inputs.kind === 'builder' && s.model.builder !== 'python') {
    const p = ptr('subjects', s.id, 'inputs', 'kind');
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        `inputs.kind builder takes the inputs a python builder returns; a ${s.model.builder} model returns none.`,
        'Use kind: image or tokens, or builder: python.',
      ),
    );
  }
  const w = s.model.weights;
  if (w !== null) weightsProblems(c, w, `${base}/weights`, allowDownloads);
  if (s.model.config_from !== null) configFromProblems(c, s.model.config_from, `${base}/config_from`);
  if (s.model.reinit.length > 0 && w !== null) {
    const p = `${base}/reinit`;
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        'reinit re-initialises modules of a randomly initialised model; here it would overwrite the real weights.',
        'Remove reinit, or the weights.',
      ),
    );
  }
  const inputsDtype = written?.dtype !== undefined ? spec.data.subjects[s.id]?.inputs.dtype : undefined;
  if (inputsDtype !== undefined && s.inputs.kind === 'image' && inputsDtype !== written?.dtype) {
    const p = ptr('subjects', s.id, 'inputs', 'dtype');
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        `inputs.dtype ${inputsDtype} differs from model.dtype ${written?.dtype}; floating inputs follow the model's dtype.`,
        'Remove inputs.dtype.',
      ),
    );
  }
  if (s.dtypes.length > 0 && written?.dtype !== undefined) {
    const p = ptr('subjects', s.id, 'dtypes');
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        `dtypes makes one subject per dtype; model.dtype (${written.dtype}) would be overridden in each.`,
        'Keep one of model.dtype and dtypes.',
      ),
    );
  }
  return out;
}

/** Whether `file` lies within the allowed roots; when it does not, the problem joins `c.out`. */
function contained(c: ModelCheck, p: string, file: string, what: string): boolean {
  const why = leavesRoots(file, c.roots);
  if (why)
    c.out.push(
      diag(
        'error',
        'path-outside',
        c.at(p),
        p,
        `${what} ${file} is ${why} ${describeRoots(c.roots)}.`,
        'Keep it beside the spec, or allow its directory in $BENCHGRID_ALLOW_DIRS (docs/spec.md).',
      ),
    );
  return !why;
}

/** A python builder's `name`: written, of the form FILE.py:FUNCTION or module:FUNCTION, its file present. */
function pythonSourceProblems(c: ModelCheck, base: string): void {
  const { s, at, out } = c;
  const p = `${base}${s.model.name ? '/name' : ''}`;
  if (!s.model.name)
    out.push(
      diag(
        'error',
        'missing-key',
        at(p),
        p,
        "a python model needs 'name': FILE.py:FUNCTION (a file beside the spec) or package.module:FUNCTION.",
      ),
    );
  else if (!s.model.source)
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        `'${s.model.name}' is not FILE.py:FUNCTION or package.module:FUNCTION.`,
        'Write the file relative to the spec and the function after a colon, e.g. models/mixer.py:build.',
      ),
    );
  else if (
    s.model.source.file !== null &&
    contained(c, p, s.model.source.file, 'model file') &&
    !isFile(s.model.source.file)
  ) {
    out.push(
      diag(
        'error',
        'missing-file',
        at(p),
        p,
        `model file ${s.model.source.file} does not exist.`,
        "The path is relative to the spec's directory.",
      ),
    );
  }
}

/** Weights must suit the builder: hub ids (cached) for transformers, a state_dict file or save_pretrained directory. */
function weightsProblems(c: ModelCheck, w: Weights, p: string, allowDownloads: boolean): void {
  const { s, at, out } = c;
  if (w.kind === 'hub') hubWeightsProblems(c, w, p, allowDownloads);
  else if (contained(c, p, w.path, 'weights')) {
    if (w.kind === 'state_dict' && (s.model.builder === 'transformers' || s.model.builder === 'gpt2'))
      out.push(
        diag(
          'error',
          'bad-value',
          at(p),
          p,
          `a ${s.model.builder} model loads a save_pretrained directory (or hf:ID), not a state_dict file.`,
        ),
      );
    else if (w.kind === 'pretrained' && (s.model.builder === 'torchvision' || s.model.builder === 'python'))
      out.push(
        diag(
          'error',
          'bad-value',
          at(p),
          p,
          `a ${s.model.builder} model takes a state_dict file (${STATE_DICT_EXTENSIONS.join(', ')}); ${w.written} is not one.`,
          'A directory of save_pretrained is for builder: transformers.',
        ),
      );
    else if (w.kind === 'state_dict' && !isFile(w.path))
      out.push(
        diag(
          'error',
          'missing-file',
          at(p),
          p,
          `weights file ${w.path} does not exist.`,
          "The path is relative to the spec's directory.",
        ),
      );
    else if (w.kind === 'pretrained' && !isFile(path.join(w.path, 'config.json')))
      out.push(
        diag(
          'error',
          'missing-file',
          at(p),
          p,
          `weights directory ${w.path} has no config.json (save_pretrained writes one).`,
          "The path is relative to the spec's directory.",
        ),
      );
  }
}

/** Hub weights load only into a transformers model, and must be a hub id already in the local cache. */
function hubWeightsProblems(
  c: ModelCheck,
  w: Extract<Weights, { kind: 'hub' }>,
  p: string,
  allowDownloads: boolean,
): void {
  const { spec, s, at, out } = c;
  if (s.model.builder !== 'transformers' && s.model.builder !== 'gpt2')
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        `hub weights (hf:...) load a transformers model; a ${s.model.builder} model takes a state_dict file (${STATE_DICT_EXTENSIONS.join(', ')}).`,
      ),
    );
  else if (!HUB_ID.test(w.id))
    out.push(diag('error', 'bad-value', at(p), p, `'${w.written}' is not a hub id (hf:ORG/NAME).`));
  else if (!hubCached(w.id)) {
    const message = `weights ${w.written} are not in the local Hugging Face cache, and benchgrid never downloads without being asked.`;
    out.push(
      allowDownloads
        ? diag(
            'warning',
            'weights-download',
            at(p),
            p,
            `weights ${w.written} are not in the local Hugging Face cache; run --allow-downloads fetches them before the first cell.`,
          )
        : diag(
            'error',
            'weights-not-cached',
            at(p),
            p,
            message,
            `Download them once with \`benchgrid run ${path.basename(spec.file)} --allow-downloads\` (or huggingface-cli download ${w.id}), or point weights at a save_pretrained directory.`,
          ),
    );
  }
}

/** config_from is for transformers only, must hold a config.json, and says what weights would say too. */
function configFromProblems(c: ModelCheck, configFrom: string, p: string): void {
  const { s, at, out } = c;
  const w = s.model.weights;
  if (s.model.builder !== 'transformers')
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        `config_from builds a transformers model; this subject's builder is ${s.model.builder}.`,
      ),
    );
  else if (contained(c, p, configFrom, 'config_from') && !isFile(path.join(configFrom, 'config.json')))
    out.push(diag('error', 'missing-file', at(p), p, `${configFrom} has no config.json.`));
  if (w !== null)
    out.push(
      diag(
        'error',
        'bad-value',
        at(p),
        p,
        'config_from and weights both say where the model comes from; weights hold their own config.',
        'Keep one.',
      ),
    );
}

/** Whether `file` is a regular file (following links); false when it is missing or unreadable. */
export function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
