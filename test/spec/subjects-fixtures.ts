// Shared by the tests of subjects declared in full: a spec of one subject, the files beside it that a
// python builder and real weights name, and `validate` refusing a spec written there.
import { expect } from 'vitest';
import { cli, tmpdir, write } from '../helpers.ts';
import { oneSubjectSpec } from './one-subject.ts';

/** A spec with one subject `s` (the given model, inputs and extras) and a read of `site` by raw and hooks. */
export function spec(
  model: string,
  opts: { inputs?: string; extra?: string; protocol?: string; site?: string } = {},
): string {
  return oneSubjectSpec({
    name: 'subjects_test',
    title: 'subjects',
    label: 'my model',
    model,
    protocol: `{ processes: 2, samples: 3, min_samples: 2${opts.protocol ? `, ${opts.protocol}` : ''} }`,
    inputs: opts.inputs ?? '{ kind: image, shape: [1, 3, 8, 8], seed: 0 }',
    site: opts.site ?? 'body.0',
    extra: `${opts.extra ?? ''}\n`,
  });
}

/** Writes into `dir` the model file, state_dict and save_pretrained directory the specs name. */
export function writeSubjectFiles(dir: string): void {
  // A model file that would fail loudly if anything imported it while validating.
  write(dir, 'models/net.py', 'raise SystemExit("imported while validating")\ndef build(width=4):\n    pass\n');
  write(dir, 'weights/net.safetensors', 'not really');
  write(dir, 'pretrained/config.json', '{"model_type": "gpt2"}');
}

/** A fresh directory holding the subject files, for the specs a test writes beside them. */
export function subjectDir(): string {
  const dir = tmpdir();
  writeSubjectFiles(dir);
  return dir;
}

/** `benchgrid validate` of `text` written to `name` in `dir`, which must refuse it (exit 2): what it said. */
export async function refusedIn(dir: string, name: string, text: string, label?: string): Promise<string> {
  const r = await cli(['validate', write(dir, name, text)]);
  expect(r.code, label).toBe(2);
  return r.stderr;
}

/** What the dtype axis makes of subject `of` at bfloat16: its model in that dtype, and the axis it came from. */
export const inBfloat16 = (of: string) => ({ model: { dtype: 'bfloat16' }, axis: { of, dtype: 'bfloat16' } });
