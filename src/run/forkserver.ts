// The fork start mode: one clean Python parent per environment that has imported torch and torchvision
// and nothing else (runners/harness/benchgrid_harness/forkserver.py), forking a fresh child for every
// cell process. It serves the cold launcher's loop (launch.py), so the children get the same environment,
// time limit, tree kill and exit report as cold processes.
import { UserError } from '../errors.ts';
import { commandOf, type Launcher, type ProcessJob } from './launcher.ts';
import { startLauncher } from './spawn.ts';

/** Options of the fork launcher. */
export interface ForkOptions {
  /**
   * Start memory-mode processes cold (default true). A forked child's peak RSS (ru_maxrss) counts only the
   * parent's pages it touches (shared library text it never faults in is not counted), so it is not the
   * quantity a cold process reports; timing processes are unaffected (docs/performance.md).
   */
  memoryCold?: boolean;
}

/** A launcher that forks cell processes from a clean parent started with `python`. */
export async function forkLauncher(python: string, threads: number, options: ForkOptions = {}): Promise<Launcher> {
  const memoryCold = options.memoryCold ?? true;
  let server;
  try {
    server = await startLauncher(python, 'benchgrid_harness.forkserver', threads, true);
  } catch (error) {
    throw new UserError(`--start fork: cannot start the fork server with ${python}: ${(error as Error).message}. Use --start cold.`);
  }
  const start = (job: ProcessJob) => server.run(commandOf(job, memoryCold && job.mode === 'memory' ? 'cold' : 'fork'));
  return { mode: 'fork', start, close: () => server.close() };
}
