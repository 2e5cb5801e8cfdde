// Semantic rules of text inputs: a transformers model takes them, the tokenizer is one the cell process can
// load without a network (a directory of the spec's tree, a hub id already cached, the weights' own, or bytes),
// and bytes fit the model's vocabulary. The prompts file itself is read and checked by src/spec/text-inputs.ts.
import path from 'node:path';
import { diag, ptr, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { hubCached, TOKENIZER_FILES } from '../spec/hub-cache.ts';
import { allowedRoots, describeRoots, leavesRoots } from '../spec/places.ts';
import { HUB_ID, isDeclared } from '../spec/subjects.ts';
import type { Spec, Subject } from '../spec/types.ts';
import type { RuleInput } from './rules.ts';
import { isFile } from './rules-subjects.ts';

/** Every declared text subject's problems (a subject of the dtype axis shares its declared one's inputs). */
export const textInputs = ({ spec, options }: RuleInput): Diagnostic[] =>
  Object.values(spec.subjects)
    .filter((s) => isDeclared(s) && s.inputs.text !== null)
    .flatMap((s) => textProblems(spec, s, options?.allowDownloads ?? false));

function textProblems(spec: Spec, s: Subject, allowDownloads: boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  const base = ptr('subjects', s.id, 'inputs');
  const at = (p: string) => positionOf(spec.positions, p, spec.file);
  const tokenizer = s.inputs.text!.tokenizer;
  const p = `${base}${tokenizer.kind === 'model' ? '' : '/tokenizer'}`;
  if (s.model.builder !== 'transformers' && s.model.builder !== 'gpt2') {
    out.push(
      diag(
        'error',
        'bad-value',
        at(`${base}/kind`),
        `${base}/kind`,
        `text inputs are tokenized for a transformers causal LM; a ${s.model.builder} model takes tensors.`,
        'Use builder: transformers, or inputs kind tokens/image/builder.',
      ),
    );
    return out;
  }
  if (tokenizer.kind === 'model') {
    const w = s.model.weights;
    if (w === null || w.kind === 'state_dict')
      out.push(
        diag(
          'error',
          'missing-key',
          at(p),
          p,
          'text inputs need a tokenizer: this model has random weights, so it has none of its own.',
          'Set inputs.tokenizer: bytes, a save_pretrained directory, or hf:ORG/NAME.',
        ),
      );
    else if (w.kind === 'pretrained' && !TOKENIZER_FILES.some((f) => isFile(path.join(w.path, f))))
      out.push(
        diag(
          'error',
          'missing-file',
          at(p),
          p,
          `weights directory ${w.path} holds no tokenizer (${TOKENIZER_FILES.join(' or ')}).`,
          'Save the tokenizer there too (tokenizer.save_pretrained), or set inputs.tokenizer.',
        ),
      );
  } else if (tokenizer.kind === 'hub') {
    if (!HUB_ID.test(tokenizer.id))
      out.push(diag('error', 'bad-value', at(p), p, `'${tokenizer.written}' is not a hub id (hf:ORG/NAME).`));
    else if (!hubCached(tokenizer.id, process.env, TOKENIZER_FILES)) {
      out.push(
        allowDownloads
          ? diag(
              'warning',
              'weights-download',
              at(p),
              p,
              `tokenizer ${tokenizer.written} is not in the local Hugging Face cache; run --allow-downloads fetches it before the first cell.`,
            )
          : diag(
              'error',
              'weights-not-cached',
              at(p),
              p,
              `tokenizer ${tokenizer.written} is not in the local Hugging Face cache, and benchgrid never downloads without being asked.`,
              `Download it once with \`benchgrid run ${path.basename(spec.file)} --allow-downloads\`, or point tokenizer at a save_pretrained directory.`,
            ),
      );
    }
  } else if (tokenizer.kind === 'pretrained') {
    const roots = allowedRoots(spec.file);
    const why = leavesRoots(tokenizer.path, roots);
    if (why)
      out.push(
        diag(
          'error',
          'path-outside',
          at(p),
          p,
          `tokenizer ${tokenizer.path} is ${why} ${describeRoots(roots)}.`,
          'Keep it beside the spec, or allow its directory in $BENCHGRID_ALLOW_DIRS (docs/spec.md).',
        ),
      );
    else if (!TOKENIZER_FILES.some((f) => isFile(path.join(tokenizer.path, f))))
      out.push(
        diag(
          'error',
          'missing-file',
          at(p),
          p,
          `tokenizer directory ${tokenizer.path} holds no ${TOKENIZER_FILES.join(' or ')}.`,
          "Write it with tokenizer.save_pretrained(DIR); the path is relative to the spec's directory.",
        ),
      );
  } else {
    const vocab = s.model.config.vocab_size;
    if (typeof vocab === 'number' && vocab < 257)
      out.push(
        diag(
          'error',
          'bad-value',
          at(p),
          p,
          `the bytes tokenizer needs a vocabulary of 257 (256 bytes and the pad id); the model's vocab_size is ${vocab}.`,
          'Raise vocab_size, or name a tokenizer.',
        ),
      );
  }
  return out;
}
