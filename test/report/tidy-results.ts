// The tiny results file (tiny-results.ts) with what a tidy row reads beyond it: a paired cell with its import
// tax, work witnesses, a cell's own runtime, and the subject's model.
import { pairedRecord } from '../helpers/paired-record.ts';
import { tinyResultsJson } from './tiny-results.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path

const witness = (forwards: number, bytes: number) => ({ forwards, parameter_grads: false, result_bytes: bytes });

/**
 * The tiny results, with the hooks cell paired against raw in its first process (ratio 1.25, import tax
 * 1.01, its baselines drawn from its own samples so that the loader's recomputation agrees), and the
 * nnsight cell calling the model twice in one of its processes.
 */
export function tidyResultsJson(): Record<string, unknown> {
  const raw = tinyResultsJson() as Json;
  const subject = raw.resnet18 as Json;
  subject.meta.model = { builder: 'torchvision', name: 'resnet18', dtype: 'float32', weights: null };
  const hooks = subject.groups['A/single_module_output/hooks/resnet18'];
  Object.assign(hooks, {
    paired: pairedRecord(hooks.samples_ms[0], {
      ratio: 1.25,
      ci95: [1.2, 1.3],
      published: [1.15, 1.35],
      tax: 1.01,
      seed: 12345,
    }),
    import_tax: { ratio: 1.01, ci95: [0.99, 1.03] },
    work: {
      required: { forwards: 1, parameter_grads: false },
      witnesses: [witness(1, 401408), witness(1, 401408)],
      differs: [],
    },
  });
  Object.assign(subject.groups['A/single_module_output/nnsight/resnet18'], {
    runtime: { environment: 'nnsight', python: '3.10.19', torch: '2.13.0', torchvision: null },
    work: {
      required: { forwards: 1, parameter_grads: false },
      witnesses: [witness(2, 8), witness(1, 8)],
      differs: ['calls the model twice'],
    },
  });
  return raw;
}
