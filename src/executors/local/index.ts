// The local executor: the run command plans, journals and aggregates; the processes run here.
import { UserError } from '../../errors.ts';
import type { Executor } from '../executor.ts';
import { runLocally } from './local.ts';

export const local: Executor = {
  name: 'local',
  execute: runLocally,
  submit: null,
  // A local run writes its results itself; nothing of it is left for ingest.
  recognises: () => false,
  ingest: async (dirs) => {
    throw new UserError(
      `${dirs[0]}: a local run writes its own results; resume it with \`benchgrid run --resume\` instead.`,
    );
  },
};
