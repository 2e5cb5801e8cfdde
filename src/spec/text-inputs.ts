// Text inputs (`inputs: {kind: text}`): prompts written in the spec or in a prompts file beside it, and the
// tokenizer that turns them into token ids in the cell process (runners/harness/benchgrid_harness/text.py).
// textInputsOf is pure (paths resolved, never read); readPromptsFiles is the one read, done when the spec is
// loaded so that every request carries the prompts themselves and a cell is described by its request alone.
import fs from 'node:fs';
import path from 'node:path';
import type { InputsData } from './data.ts';
import { diag, ptr, type Diagnostic } from './diagnostics.ts';
import { positionOf } from './document.ts';
import { allowedRoots, describeRoots, leavesRoots } from './places.ts';
import type { Spec, TextInputs, Tokenizer } from './types.ts';
import { declaredSubject } from './subjects.ts';

/** At most this many prompts, each at most this many characters (the harness checks the same). */
export const MAX_PROMPTS = 4096;
export const MAX_PROMPT_CHARS = 100_000;
/** A prompts file larger than this is refused before it is read. */
const MAX_PROMPTS_FILE_BYTES = 16 * 1024 * 1024;

/** `inputs.tokenizer` resolved: bytes, a hub id, or a directory relative to the spec; absent: the weights' own. */
export function tokenizerOf(written: string | undefined, specFile: string): Tokenizer {
  if (written === undefined) return { kind: 'model' };
  if (written === 'bytes') return { kind: 'bytes' };
  if (written.startsWith('hf:')) return { kind: 'hub', id: written.slice(3), written };
  return { kind: 'pretrained', path: path.resolve(path.dirname(specFile), written), written };
}

/** A subject's text inputs as written (prompts_file not yet read), or null for other kinds. */
export function textInputsOf(inputs: InputsData, specFile: string): TextInputs | null {
  if (inputs.kind !== 'text') return null;
  return {
    prompts: inputs.prompts ?? [],
    prompts_file: inputs.prompts_file === undefined ? null : path.resolve(path.dirname(specFile), inputs.prompts_file),
    tokenizer: tokenizerOf(inputs.tokenizer, specFile),
    padding_side: inputs.padding_side ?? 'left',
  };
}

/**
 * Reads every subject's prompts file into its prompts: one prompt per non-empty line (a line's trailing
 * whitespace is not part of it). A file outside the allowed roots, missing, too large, not UTF-8 or without
 * a prompt is an error at the file's key; nothing in it is executed or interpreted beyond its lines.
 */
export function readPromptsFiles(spec: Spec): Diagnostic[] {
  const out: Diagnostic[] = [];
  const roots = allowedRoots(spec.file);
  // Each declared subject's file once: its prompts, or null when it was refused (said once, filled nowhere).
  const read = new Map<string, string[] | null>();
  for (const s of Object.values(spec.subjects)) {
    const text = s.inputs.text;
    if (text?.prompts_file == null) continue;
    // The subjects of a dtype axis or a sweep share their declared subject's file: read once, said once.
    const p = ptr('subjects', declaredSubject(s.id), 'inputs', 'prompts_file');
    const sized = spec.data.subjects[declaredSubject(s.id)]?.inputs.batch_size !== undefined;
    if (read.has(p)) {
      const prompts = read.get(p);
      if (prompts) fill(s, prompts, sized);
      continue;
    }
    read.set(p, null);
    const at = positionOf(spec.positions, p, spec.file);
    const file = text.prompts_file;
    const refuse = (message: string, hint?: string) => out.push(diag('error', 'bad-value', at, p, message, hint));
    const why = leavesRoots(file, roots);
    if (why) {
      refuse(
        `prompts file ${file} is ${why} ${describeRoots(roots)}.`,
        'Keep it beside the spec, or allow its directory in $BENCHGRID_ALLOW_DIRS (docs/spec.md).',
      );
      continue;
    }
    let bytes: Buffer;
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) {
        refuse(`prompts file ${file} is not a file.`);
        continue;
      }
      if (stat.size > MAX_PROMPTS_FILE_BYTES) {
        refuse(`prompts file ${file} is ${stat.size} bytes; at most ${MAX_PROMPTS_FILE_BYTES} are read.`);
        continue;
      }
      bytes = fs.readFileSync(file);
    } catch {
      refuse(`prompts file ${file} does not exist.`, "The path is relative to the spec's directory.");
      continue;
    }
    let content: string;
    try {
      content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      refuse(`prompts file ${file} is not UTF-8 text.`);
      continue;
    }
    const prompts = content
      .split(/\r?\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l.length > 0);
    const problem = promptsProblem(prompts);
    if (problem) {
      refuse(`prompts file ${file}: ${problem}`, 'One prompt per line.');
      continue;
    }
    fill(s, prompts, sized);
    read.set(p, prompts);
  }
  return out;
}

/** A subject's prompts, and the counts that follow them: the dataset is the prompts, one batch unless batch_size says. */
function fill(s: Spec['subjects'][string], prompts: string[], sized: boolean): void {
  s.inputs.text!.prompts = prompts;
  if (!sized) s.inputs.batch_size = prompts.length;
  s.inputs.stimuli = prompts.length;
}

/** What is wrong with a list of prompts, or null. */
export function promptsProblem(prompts: string[]): string | null {
  if (prompts.length === 0) return 'it holds no prompt.';
  if (prompts.length > MAX_PROMPTS) return `${prompts.length} prompts; at most ${MAX_PROMPTS}.`;
  const long = prompts.findIndex((p) => p.length > MAX_PROMPT_CHARS);
  return long >= 0 ? `prompt ${long + 1} is ${prompts[long].length} characters; at most ${MAX_PROMPT_CHARS}.` : null;
}
