// The action's "bench" step (action.yml): see src/ci/action.ts.
import { bench } from '../../src/ci/action.ts';
import { runStep } from '../../src/ci/step.ts';

await runStep(bench);
