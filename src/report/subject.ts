// How a report names a subject: its label, then the dtype its model ran in and where its weights came from,
// so that a bfloat16 row is never read as a float32 one and real weights are never mistaken for random ones.
import type { SubjectModel } from '../results/model.ts';

/** `MLP-Mixer, float32, random weights` or `GPT-2, bfloat16, weights ./gpt2 (sha256:0123456789ab)`. */
export function subjectTitle(label: string, model: SubjectModel | null | undefined): string {
  if (!model) return label;
  return `${label}, ${model.dtype}, ${weightsText(model.weights)}`;
}

/** `random weights`, or the weights' source with the first 12 digits of their digest. */
export function weightsText(weights: SubjectModel['weights']): string {
  if (weights === null) return 'random weights';
  return `weights ${weights.source} (${weights.sha256.slice(0, 'sha256:'.length + 12)})`;
}
