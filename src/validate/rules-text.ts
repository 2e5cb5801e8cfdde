// Semantic rules of text inputs: a transformers model takes them, the tokenizer is one the cell process can
// load without a network (a directory of the spec's tree, a hub id already cached, the weights' own, or bytes),
// and bytes fit the model's vocabulary. The prompts file itself is read and checked by src/spec/text-inputs.ts.
import path from 'node:path';
import { diag, ptr, type Diagnostic, type Pos } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { hubCached, TOKENIZER_FILES } from '../spec/hub-cache.ts';
import { allowedRoots, describeRoots, leavesRoots } from '../spec/places.ts';
import { HUB_ID, isDeclared } from '../spec/subjects.ts';
import type { Spec, Subject, Tokenizer, Weights } from '../spec/types.ts';
import type { RuleInput } from './rules.ts';
import { isFile } from './rules-subjects.ts';

/** Every declared text subject's problems (a subject of the dtype axis shares its declared one's inputs). */
export const textInputs = ({ spec, options }: RuleInput): Diagnostic[] =>
  Object.values(spec.subjects)
    .filter((s) => isDeclared(s) && s.inputs.text !== null)
    .flatMap((s) => textProblems(spec, s, options?.allowDownloads ?? false));

function textProblems(spec: Spec, s: Subject, allowDownloads: boolean): Diagnostic[] {
  const base = ptr('subjects', s.id, 'inputs');
  const tokenizer = s.inputs.text!.tokenizer;
  if (s.model.builder !== 'transformers' && s.model.builder !== 'gpt2') {
    return [
      diag(
        'error',
        'bad-value',
        positionOf(spec.positions, `${base}/kind`, spec.file),
        `${base}/kind`,
        `text inputs are tokenized for a transformers causal LM; a ${s.model.builder} model takes tensors.`,
        'Use builder: transformers, or inputs kind tokens/image/builder.',
      ),
    ];
  }
  // The tokenizer's problem is reported where it is written, or at inputs when it is the weights' own.
  const p = `${base}${tokenizer.kind === 'model' ? '' : '/tokenizer'}`;
  const at = positionOf(spec.positions, p, spec.file);
  const problem =
    tokenizer.kind === 'model'
      ? ownTokenizerProblem(s.model.weights, at, p)
      : tokenizer.kind === 'hub'
        ? hubTokenizerProblem(tokenizer, spec.file, allowDownloads, at, p)
        : tokenizer.kind === 'pretrained'
          ? directoryTokenizerProblem(tokenizer, spec.file, at, p)
          : bytesTokenizerProblem(s.model.config.vocab_size, at, p);
  return problem ? [problem] : [];
}

/** The weights' own tokenizer: random or state_dict weights have none, a save_pretrained directory must hold one. */
function ownTokenizerProblem(w: Weights | null, at: Pos, p: string): Diagnostic | undefined {
  if (w === null || w.kind === 'state_dict')
    return diag(
      'error',
      'missing-key',
      at,
      p,
      'text inputs need a tokenizer: this model has random weights, so it has none of its own.',
      'Set inputs.tokenizer: bytes, a save_pretrained directory, or hf:ORG/NAME.',
    );
  if (w.kind === 'pretrained' && !TOKENIZER_FILES.some((f) => isFile(path.join(w.path, f))))
    return diag(
      'error',
      'missing-file',
      at,
      p,
      `weights directory ${w.path} holds no tokenizer (${TOKENIZER_FILES.join(' or ')}).`,
      'Save the tokenizer there too (tokenizer.save_pretrained), or set inputs.tokenizer.',
    );
  return undefined;
}

/** A hub tokenizer must be a hub id already in the local cache; with --allow-downloads a missing one only warns. */
function hubTokenizerProblem(
  tokenizer: Extract<Tokenizer, { kind: 'hub' }>,
  specFile: string,
  allowDownloads: boolean,
  at: Pos,
  p: string,
): Diagnostic | undefined {
  if (!HUB_ID.test(tokenizer.id))
    return diag('error', 'bad-value', at, p, `'${tokenizer.written}' is not a hub id (hf:ORG/NAME).`);
  if (hubCached(tokenizer.id, process.env, TOKENIZER_FILES)) return undefined;
  return allowDownloads
    ? diag(
        'warning',
        'weights-download',
        at,
        p,
        `tokenizer ${tokenizer.written} is not in the local Hugging Face cache; run --allow-downloads fetches it before the first cell.`,
      )
    : diag(
        'error',
        'weights-not-cached',
        at,
        p,
        `tokenizer ${tokenizer.written} is not in the local Hugging Face cache, and benchgrid never downloads without being asked.`,
        `Download it once with \`benchgrid run ${path.basename(specFile)} --allow-downloads\`, or point tokenizer at a save_pretrained directory.`,
      );
}

/** A tokenizer directory must lie within the allowed roots and hold the files tokenizer.save_pretrained writes. */
function directoryTokenizerProblem(
  tokenizer: Extract<Tokenizer, { kind: 'pretrained' }>,
  specFile: string,
  at: Pos,
  p: string,
): Diagnostic | undefined {
  const roots = allowedRoots(specFile);
  const why = leavesRoots(tokenizer.path, roots);
  if (why)
    return diag(
      'error',
      'path-outside',
      at,
      p,
      `tokenizer ${tokenizer.path} is ${why} ${describeRoots(roots)}.`,
      'Keep it beside the spec, or allow its directory in $BENCHGRID_ALLOW_DIRS (docs/spec.md).',
    );
  if (!TOKENIZER_FILES.some((f) => isFile(path.join(tokenizer.path, f))))
    return diag(
      'error',
      'missing-file',
      at,
      p,
      `tokenizer directory ${tokenizer.path} holds no ${TOKENIZER_FILES.join(' or ')}.`,
      "Write it with tokenizer.save_pretrained(DIR); the path is relative to the spec's directory.",
    );
  return undefined;
}

/** The bytes tokenizer's ids run to 256 (the pad), so the model's vocabulary must hold 257. */
function bytesTokenizerProblem(vocab: unknown, at: Pos, p: string): Diagnostic | undefined {
  if (typeof vocab === 'number' && vocab < 257)
    return diag(
      'error',
      'bad-value',
      at,
      p,
      `the bytes tokenizer needs a vocabulary of 257 (256 bytes and the pad id); the model's vocab_size is ${vocab}.`,
      'Raise vocab_size, or name a tokenizer.',
    );
  return undefined;
}
