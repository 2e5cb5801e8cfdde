// Stopping environment builds on SIGINT/SIGTERM. The processes a build starts (venv, pip and pip's build
// backends) run in a process group of their own, so a signal kills the whole tree, not only pip; the
// unfinished `.building-PID` directory is removed; and the command ends with one line saying what was
// interrupted and what was cleaned up, with exit code 130 (EXIT.interrupted), as an interrupted run does.
import fs from 'node:fs';
import { execa, type Options, type ResultPromise } from 'execa';
import { EXIT, UserError } from '../errors.ts';

/** How long a stopped tree is given to end after SIGINT (pip then removes its temporary files), before SIGKILL. */
const GRACE_MS = 5000;

const state = {
  signal: null as NodeJS.Signals | null,
  /** Process group id -> what its leader is (`pip`), of the trees started and not yet ended. */
  trees: new Map<number, string>(),
  /** What the signal stopped. */
  killed: [] as string[],
  /** What is being built now: `environment 'main'`. */
  building: null as string | null,
  /** Unfinished directories of the builds under way: removed when a signal stops them. */
  unfinished: new Set<string>(),
  stopping: null as Promise<void> | null,
};

/** Thrown inside a build that a signal stopped; `duringBuilds` turns it into the one message. */
export class BuildInterrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'BuildInterrupted';
  }
}

/** Whether a signal has stopped the builds. */
export function interrupted(): boolean {
  return state.signal !== null;
}

/** Throws BuildInterrupted when a signal has stopped the builds (called between the steps of a build). */
export function throwIfInterrupted(): void {
  if (state.signal !== null) throw new BuildInterrupted();
}

/**
 * Marks a build under way: `what` names it in the message of an interruption (`environment 'main'`),
 * `dir` is its unfinished directory, removed when a signal stops it. The returned function unmarks both
 * (once the directory is complete, or removed after a failure).
 */
export function underway(what: string, dir: string): () => void {
  state.building = what;
  state.unfinished.add(dir);
  return () => {
    if (state.building === what) state.building = null;
    state.unfinished.delete(dir);
  };
}

/**
 * Starts a build's process in a process group of its own (`detached`), so that a signal kills it and
 * everything it started. Refused (BuildInterrupted) once a signal has come.
 */
export function startTree<O extends Options>(
  label: string,
  file: string,
  args: string[],
  options: O,
): ResultPromise<O> {
  throwIfInterrupted();
  // The options type is the caller's: `detached` changes no stream, so the result is typed by them.
  const child = execa(file, args, { ...options, detached: true }) as unknown as ResultPromise<O>;
  const pgid = child.pid;
  if (pgid !== undefined) {
    state.trees.set(pgid, label);
    const done = () => {
      // The leader has ended; its group lives on while any process it started does.
      if (!groupAlive(pgid)) state.trees.delete(pgid);
    };
    child.then(done, done);
  }
  return child;
}

/** Whether any process of a process group is alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}

async function waitGone(pgids: number[], ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (pgids.every((g) => !groupAlive(g))) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SIGINT to every tree (pip cleans up after a KeyboardInterrupt), SIGKILL to what is left after the grace. */
function stopTrees(): Promise<void> {
  state.stopping ??= (async () => {
    const pgids = [...state.trees.keys()].filter(groupAlive);
    state.killed = pgids.map((g) => state.trees.get(g) ?? 'a process');
    for (const g of pgids) signalGroup(g, 'SIGINT');
    if (!(await waitGone(pgids, GRACE_MS))) {
      for (const g of pgids) signalGroup(g, 'SIGKILL');
      await waitGone(pgids, 2000);
    }
    for (const g of pgids) state.trees.delete(g);
  })();
  return state.stopping;
}

/**
 * Runs environment builds (`env build`, the builds `run` does first) with SIGINT and SIGTERM stopping
 * them: every process tree a build started is killed, its unfinished directories are removed, and the
 * builds end in a UserError with exit code 130 whose one line says what was interrupted and cleaned up.
 */
export async function duringBuilds<T>(body: () => Promise<T>): Promise<T> {
  Object.assign(state, { signal: null, killed: [], building: null, stopping: null });
  state.unfinished.clear();
  const onSignal = (signal: NodeJS.Signals) => {
    if (state.signal !== null) return;
    state.signal = signal;
    void stopTrees();
  };
  const handlers = { SIGINT: () => onSignal('SIGINT'), SIGTERM: () => onSignal('SIGTERM') };
  process.on('SIGINT', handlers.SIGINT);
  process.on('SIGTERM', handlers.SIGTERM);
  try {
    let result: T;
    try {
      result = await body();
    } catch (error) {
      if (state.signal === null) throw error;
      throw await interruption();
    }
    if (state.signal !== null) throw await interruption();
    return result;
  } finally {
    process.off('SIGINT', handlers.SIGINT);
    process.off('SIGTERM', handlers.SIGTERM);
  }
}

/** Waits for the stopped trees to end, removes the unfinished directories, and says so. */
async function interruption(): Promise<UserError> {
  await stopTrees();
  const removed: string[] = [];
  for (const dir of state.unfinished) {
    if (fs.existsSync(dir)) removed.push(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  state.unfinished.clear();
  const what = state.building ? `building ${state.building}` : 'the environment builds';
  const done: string[] = [];
  if (state.killed.length > 0)
    done.push(`stopped ${[...new Set(state.killed)].join(' and ')} with every process started under it`);
  if (removed.length > 0) done.push(`removed the unfinished ${removed.join(', ')}`);
  const cleaned = done.length > 0 ? done.join(', and ') : 'nothing was left to clean up';
  return new UserError(
    `${state.signal}: interrupted ${what}; ${cleaned}. Run the command again to build it.`,
    EXIT.interrupted,
  );
}
