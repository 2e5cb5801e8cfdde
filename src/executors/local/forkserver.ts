// The fork start mode: a clean Python parent per environment that has imported torch and torchvision
// and nothing else (runners/harness/benchgrid_harness/forkserver.py), forking a fresh child for every
// cell process. It serves the cold launcher's loop (launch.py), so the children get the same environment,
// time limit, tree kill and exit report as cold processes.
//
// A fresh parent per round of the schedule. Every child inherits its parent's heap: where the allocator
// put torch's objects, how fragmented it is. That state differs from one parent to the next, and a
// Python-heavy tool's ratio to the plain forward moves with it: with one parent per run, torchlens's paired
// ratios moved 3-5% from run to run beyond what the processes of one run showed (docs/performance.md,
// "Between runs"), because every process of a run shared the one parent. With a parent per round, the
// processes of a cell each come from another parent, so that variation is between the cell's processes,
// where its interval sees it.
import { UserError } from '../../errors.ts';
import type { Exit } from '../../records/outcome.ts';
import { commandOf, type Launcher, type ProcessJob } from './launcher.ts';
import { startLauncher, type LauncherProcess, type Running } from './spawn.ts';

/** Options of the fork launcher. */
export interface ForkOptions {
  /**
   * Start memory-mode processes cold (default true). A forked child's peak RSS (ru_maxrss) counts only the
   * parent's pages it touches (shared library text it never faults in is not counted), so it is not the
   * quantity a cold process reports; timing processes are unaffected (docs/performance.md).
   */
  memoryCold?: boolean;
  /** A fresh parent for each round (`ProcessJob.round`), default true; false: one parent for every process. */
  parentPerRound?: boolean;
  /** How a parent is started (the tests give a fake one); default: the harness's fork server. */
  open?: () => Promise<LauncherProcess>;
}

/** The exit of a process the run stopped before its parent was ready: it never started. */
function notStarted(job: ProcessJob, why: string): Exit {
  return {
    exitCode: undefined,
    signal: undefined,
    timedOut: false,
    timeoutS: job.timeoutS,
    spawnError: why,
    stderrTail: '',
    stdoutTail: '',
  };
}

/** A launcher that forks cell processes from clean parents started with `python`, one per round. */
export async function forkLauncher(python: string, threads: number, options: ForkOptions = {}): Promise<Launcher> {
  const memoryCold = options.memoryCold ?? true;
  const perRound = options.parentPerRound ?? true;
  const open =
    options.open ??
    (async (): Promise<LauncherProcess> => {
      try {
        return await startLauncher(python, 'benchgrid_harness.forkserver', threads, true);
      } catch (error) {
        throw new UserError(
          `--start fork: cannot start the fork server with ${python}: ${(error as Error).message}. Use --start cold.`,
        );
      }
    });
  // The first parent is started now, so that a broken interpreter is refused before any process runs.
  const first = await open();
  const parents = new Map<number, Promise<LauncherProcess>>([[0, Promise.resolve(first)]]);
  const running = new Map<number, number>();
  let latest = 0;
  // A parent of an earlier round is closed once its last process has ended (--jobs N lets rounds overlap).
  const retire = async () => {
    for (const [round, parent] of [...parents]) {
      if (round >= latest || (running.get(round) ?? 0) > 0) continue;
      parents.delete(round);
      await (await parent).close();
    }
  };
  const parentFor = (round: number): Promise<LauncherProcess> => {
    let parent = parents.get(round);
    if (!parent) {
      parent = open();
      parents.set(round, parent);
    }
    return parent;
  };
  const start = (job: ProcessJob): Running => {
    const round = perRound ? (job.round ?? 0) : 0;
    latest = Math.max(latest, round);
    running.set(round, (running.get(round) ?? 0) + 1);
    let killed = false;
    let inner: Running | null = null;
    const command = commandOf(job, memoryCold && job.mode === 'memory' ? 'cold' : 'fork');
    const done = parentFor(round)
      .then(
        (parent) => {
          if (killed) return notStarted(job, 'the run stopped before this process started');
          inner = parent.run(command);
          return inner.done;
        },
        (error: Error) => notStarted(job, error.message),
      )
      .finally(() => {
        running.set(round, (running.get(round) ?? 1) - 1);
        void retire();
      });
    void retire();
    return {
      done,
      kill: () => {
        killed = true;
        inner?.kill();
      },
      start: command.start,
    };
  };
  const close = async () => {
    for (const parent of parents.values()) await (await parent.catch(() => null))?.close();
    parents.clear();
  };
  return { mode: 'fork', start, close };
}
