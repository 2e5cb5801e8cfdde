// Semantic rules of the sweep axis (src/spec/sweep.ts): every swept key is a value of the subject, each
// list holds distinct values of that value's type, and every point is a subject within the harness's
// limits, said at the value that makes the point too large.
import { diag, ptr, type Diagnostic } from '../spec/diagnostics.ts';
import { positionOf } from '../spec/document.ts';
import { inputsOverLimit } from '../spec/limits.ts';
import { sweepProblems } from '../spec/sweep.ts';
import type { Spec, Subject } from '../spec/types.ts';
import type { RuleInput } from './rules.ts';

/** The problems of every subject's `sweep`, then those of each point. */
export const sweeps = ({ spec }: RuleInput): Diagnostic[] => {
  const out: Diagnostic[] = [];
  for (const [id, data] of Object.entries(spec.data.subjects)) {
    if (data.sweep === undefined) continue;
    for (const p of sweepProblems(data)) {
      const pointer =
        p.key === ''
          ? ptr('subjects', id, 'sweep')
          : p.index === null
            ? ptr('subjects', id, 'sweep', p.key)
            : ptr('subjects', id, 'sweep', p.key, p.index);
      out.push(
        diag(
          'error',
          'bad-sweep',
          positionOf(spec.positions, pointer, spec.file, p.index === null),
          pointer,
          p.message,
          p.hint,
        ),
      );
    }
  }
  for (const s of Object.values(spec.subjects))
    if (s.sweep !== null && s.axis === null) out.push(...pointProblems(spec, s));
  return out;
};

/**
 * A point over the harness's input limit, or whose stimuli no longer split into batches: said at the swept
 * value of its inputs that made it so (the first, for several), else at the sweep.
 */
function pointProblems(spec: Spec, s: Subject): Diagnostic[] {
  const { of, values } = s.sweep!;
  const declared = spec.subjects[of];
  const axis = declared?.swept.find((a) => a.path.startsWith('inputs.')) ?? declared?.swept[0];
  const pointer = axis
    ? ptr('subjects', of, 'sweep', axis.path, axis.values.indexOf(values[axis.name]))
    : ptr('subjects', of, 'sweep');
  const at = positionOf(spec.positions, pointer, spec.file);
  const out = inputsOverLimit(s.inputs).map((o) =>
    diag(
      'error',
      'bad-value',
      at,
      pointer,
      `point ${s.id}: ${o.message}`,
      o.key === 'shape' ? 'Sweep smaller values.' : 'Sweep smaller values, or set fewer inputs.stimuli.',
    ),
  );
  if (s.inputs.kind !== 'text' && s.inputs.stimuli % s.inputs.batch_size !== 0) {
    out.push(
      diag(
        'error',
        'bad-value',
        at,
        pointer,
        `point ${s.id}: stimuli (${s.inputs.stimuli}) must be a multiple of batch_size (${s.inputs.batch_size}).`,
        'Sweep a batch that divides inputs.stimuli, or change inputs.stimuli.',
      ),
    );
  }
  return out;
}
