// A subject as declared, resolved: its model's code (a builder, or a function of the user's), its weights,
// its dtype, and the dtype axis that makes one subject per dtype. Pure: paths are resolved, never read.
import path from 'node:path';
import type { SubjectData } from './data.ts';
import { DTYPE_SHORT, type ModelDtype, type Subject, type Weights } from './types.ts';
import { VERSION_SEP } from './versions.ts';
import { pointIds } from './sweep.ts';

/** A python builder's function: a file of the spec's tree (absolute once resolved) or an installed module. */
export interface ModelSource {
  file: string | null;
  module: string | null;
  function: string;
}

/** A Python identifier, and a dotted module path of them. */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MODULE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/**
 * `models/mixer.py:build` (a file relative to the spec's directory) or `package.module:build` (a module
 * installed in the spec's environment); null when `name` is neither (validate says why).
 */
export function modelSource(name: string | null, specFile: string): ModelSource | null {
  if (!name) return null;
  const colon = name.lastIndexOf(':');
  if (colon <= 0) return null;
  const where = name.slice(0, colon);
  const fn = name.slice(colon + 1);
  if (!IDENT.test(fn)) return null;
  if (where.endsWith('.py')) return { file: path.resolve(path.dirname(specFile), where), module: null, function: fn };
  return MODULE.test(where) ? { file: null, module: where, function: fn } : null;
}

/** Extensions of a state_dict file (torch.save's, and safetensors'). */
export const STATE_DICT_EXTENSIONS = ['.pt', '.pth', '.bin', '.safetensors'];

/** A hub id as `hf:` names it: ORG/NAME or NAME, the characters the hub allows. */
export const HUB_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/;

/** `model.weights` resolved: a hub id, a state_dict file, or a save_pretrained directory (relative to the spec). */
export function weightsOf(written: string | undefined, specFile: string): Weights | null {
  if (written === undefined) return null;
  if (written.startsWith('hf:')) return { kind: 'hub', id: written.slice(3), written };
  const file = path.resolve(path.dirname(specFile), written);
  const kind = STATE_DICT_EXTENSIONS.some((e) => written.toLowerCase().endsWith(e)) ? 'state_dict' : 'pretrained';
  return { kind, path: file, written };
}

/** The model's dtype: model.dtype, else a floating inputs.dtype (the older spelling), else float32. */
export function modelDtype(s: SubjectData): ModelDtype {
  return s.model.dtype ?? (s.inputs.dtype as ModelDtype | undefined) ?? 'float32';
}

/** The id of one dtype of a subject of the dtype axis: `gpt2@bf16`. */
export function dtypeSubjectId(subject: string, dtype: ModelDtype): string {
  return `${subject}${VERSION_SEP}${DTYPE_SHORT[dtype]}`;
}

/**
 * Adds one subject per declared dtype (SUBJECT@bf16, ...), each the declared subject with its model (and
 * floating inputs) in that dtype; the declared subject stays, for the groups and reasons that name it.
 * A swept subject's dtypes are its points' (src/spec/sweep.ts): SUBJECT@seq=256@bf16.
 */
export function expandDtypes(subjects: Record<string, Subject>): void {
  for (const s of Object.values(subjects)) {
    if (s.axis !== null || s.swept.length > 0) continue;
    for (const dtype of s.dtypes) {
      const id = dtypeSubjectId(s.id, dtype);
      const inputs = s.inputs.kind === 'image' ? { ...s.inputs, dtype } : s.inputs;
      // The label stays: reports name the dtype beside it (src/report/subject.ts), from what the process built.
      subjects[id] = { ...s, id, model: { ...s.model, dtype }, inputs, axis: { of: s.id, dtype }, dtypes: [] };
    }
  }
}

/** The subjects one id stands for: a swept subject's points, a subject of the dtype axis's dtypes, else itself. */
function subjectsOf(subjects: Record<string, Subject>, id: string): string[] {
  const s = subjects[id];
  if (!s) return [id];
  if (s.swept.length > 0) return pointIds(s).flatMap((p) => subjectsOf(subjects, p));
  return s.dtypes.length > 0 && s.axis === null ? s.dtypes.map((d) => dtypeSubjectId(id, d)) : [id];
}

/** A group's subjects with each swept subject replaced by its points and each of the dtype axis by its dtypes, in declared order. */
export function expandSubjectList(subjects: Record<string, Subject>, ids: readonly string[]): string[] {
  return [...new Set(ids.flatMap((id) => subjectsOf(subjects, id)))];
}

/** The declared subject a subject of the dtype axis or a sweep was made from (`gpt2@seq=256@bf16` -> `gpt2`); any other id itself. */
export function declaredSubject(id: string): string {
  const i = id.indexOf(VERSION_SEP);
  return i < 0 ? id : id.slice(0, i);
}

/** Whether a subject is one the spec declares, not one an axis made (a point of a sweep, or one dtype): the rules check those. */
export function isDeclared(s: Pick<Subject, 'axis' | 'sweep'>): boolean {
  return s.axis === null && s.sweep === null;
}
