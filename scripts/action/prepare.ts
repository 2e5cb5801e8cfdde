// The action's "prepare" step (action.yml): see src/ci/action.ts.
import { prepare } from '../../src/ci/action.ts';
import { runStep } from '../../src/ci/step.ts';

await runStep(prepare);
