// The action's "comment" step (action.yml): see src/ci/action.ts.
import { comment } from '../../src/ci/action.ts';
import { runStep } from '../../src/ci/step.ts';

await runStep(comment);
