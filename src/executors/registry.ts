// The executors by name: `run --executor`, `ingest` and bench-change find theirs here. Each loads
// when asked for, so a plain local run never reads the Slurm code. Adding one is a folder and a line.
import { UserError } from '../errors.ts';
import type { Executor } from './executor.ts';
import type { SlurmFlags } from './slurm/settings.ts';

/**
 * Every executor's own flags of `run`, together (src/cli/run.ts declares them): an executor's submit is
 * given them all and reads its own. A type only, so importing it loads no executor.
 */
export type ExecutorFlags = SlurmFlags;

/** An executor as the registry holds it: one whose own flags are among ExecutorFlags. */
export type RegisteredExecutor = Executor<ExecutorFlags>;

/** How to load an executor, and whether `run --executor` offers it (bundles are exported by `export` and run by hand). */
interface Entry {
  runs: boolean;
  load: () => Promise<RegisteredExecutor>;
}

const EXECUTORS = new Map<string, Entry>([
  ['local', { runs: true, load: async () => (await import('./local/index.ts')).local }],
  ['slurm', { runs: true, load: async () => (await import('./slurm/index.ts')).slurm }],
  ['bundle', { runs: false, load: async () => (await import('./bundle/index.ts')).bundle }],
]);

/** Adds an executor (a test's sketch of a new one); a name already taken is replaced. */
export function registerExecutor(executor: RegisteredExecutor): void {
  EXECUTORS.set(executor.name, {
    runs: executor.execute !== null || executor.submit !== null,
    load: async () => executor,
  });
}

/** Every registered executor's name, in registration order. */
export function executorNames(): string[] {
  return [...EXECUTORS.keys()];
}

/** The names `run --executor` accepts: the executors that run or submit processes. */
export function runExecutorNames(): string[] {
  return [...EXECUTORS].filter(([, e]) => e.runs).map(([name]) => name);
}

/** The executor of a name; an unknown one is refused naming those there are. */
export async function executorNamed(name: string): Promise<RegisteredExecutor> {
  const entry = EXECUTORS.get(name);
  if (!entry) throw new UserError(`--executor ${name}: no such executor (${runExecutorNames().join(', ')}).`);
  return entry.load();
}

/** The executor that recognises the directories `ingest` was given; bundles when none does (ingest says what is wrong with them). */
export async function executorOf(dirs: string[]): Promise<RegisteredExecutor> {
  for (const name of executorNames()) {
    const executor = await executorNamed(name);
    if (executor.recognises(dirs)) return executor;
  }
  return executorNamed('bundle');
}
