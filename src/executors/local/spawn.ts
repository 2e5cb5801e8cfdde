// Starts cell processes through the harness's launcher (runners/harness/benchgrid_harness/launch.py): the
// one implementation of a cell process's environment (wire.json's allow-list), time limit and tree kill,
// which the bundle driver runs too. One launcher process per environment; Node sends it one command line
// per cell process and reads back the pid and how the process ended (docs/protocol.md, "Launching").
import readline from 'node:readline';
import { execa } from 'execa';
import { HARNESS_DIR } from '../../repository.ts';
import { exitOf, type Exit, type ExitRecord } from '../../records/outcome.ts';

/** A running process that can be stopped from outside (Ctrl-C). */
export interface Running {
  done: Promise<Exit>;
  kill: () => void;
  /** How this process actually started, when a launcher decides per process (fork mode starts memory processes cold). */
  start?: 'cold' | 'fork';
}

/** One cell process as launch.py starts it (its command line format). */
export interface LaunchCommand {
  start: 'cold' | 'fork';
  python: string;
  /** The arguments after `python`; a cell's are `-m benchgrid_harness --request R --result S` (the only ones forked). */
  argv: string[];
  cwd: string;
  /** Directories on the process's PYTHONPATH. */
  pythonpath: string[];
  threads: number;
  /** The process's own TMPDIR. */
  tmpdir: string | null;
  stdout: string;
  stderr: string;
  cpus: number[] | null;
  timeout_s: number;
}

/** A launcher process: where commands go. */
export interface LauncherProcess {
  run(command: LaunchCommand): Running;
  /** Ends the launcher; it kills what still runs. */
  close(): Promise<void>;
}

/** `benchgrid_harness.launch` starts cold processes only; `benchgrid_harness.forkserver` forks too. */
export type LauncherModule = 'benchgrid_harness.launch' | 'benchgrid_harness.forkserver';

type Message =
  | { ready: true }
  | { id: number; pid: number; exit?: undefined }
  | { id: number; exit: ExitRecord }
  | { id: number; error: string };

interface Waiting {
  onPid: (pid: number) => void;
  onExit: (exit: Exit) => void;
  onLost: (why: string) => void;
}

/** How long a launcher may take to be ready (the fork server imports torch; a loaded machine is slow). */
const READY_TIMEOUT_MS = 300_000;
/** How long close() waits for the launcher to end by itself before killing it. */
const CLOSE_TIMEOUT_MS = 10_000;
const STDERR_KEEP = 4000;

/** Routes one line of the launcher's stdout to the process it is about; `onReady` for the ready line. */
function route(line: string, waiting: Map<number, Waiting>, onReady: () => void): void {
  let message: Message;
  try {
    message = JSON.parse(line) as Message;
  } catch {
    return; // not ours: the launcher prints nothing else, but a library might
  }
  if ('ready' in message) {
    onReady();
    return;
  }
  const w = waiting.get(message.id);
  if (!w) return;
  if ('error' in message) {
    waiting.delete(message.id);
    w.onLost(message.error);
  } else if (message.exit) {
    waiting.delete(message.id);
    w.onExit(exitOf(message.exit));
  } else {
    w.onPid(message.pid);
  }
}

/**
 * Starts a launcher with `python` and waits until it is ready. A launcher that cannot start is returned
 * dead (every process then ends as a spawn error naming why) unless `mustStart`, when it throws.
 * The launcher runs with `-E` from the harness directory, so nothing of the caller's PYTHON* variables
 * shapes it, and `-B`, so it writes no bytecode into the harness (a write cut short by a full disk would
 * leave a truncated .pyc every later process loads); the cell processes' environment is launch.py's to build.
 */
export async function startLauncher(
  python: string,
  module: LauncherModule,
  threads: number,
  mustStart: boolean,
): Promise<LauncherProcess> {
  const what = module === 'benchgrid_harness.forkserver' ? 'fork server' : 'launcher';
  const proc = spawnLauncher(python, module, threads);
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-STDERR_KEEP);
  });
  // A write to a launcher that just died must not crash the orchestrator; the exit handler reports it.
  proc.stdin!.on('error', () => {});
  const waiting = new Map<number, Waiting>();
  let dead: string | null = null;
  let id = 1;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    readline.createInterface({ input: proc.stdout! }).on('line', (line) =>
      route(line, waiting, () => {
        clearTimeout(timer);
        resolve();
      }),
    );
    void proc.then((r) => {
      clearTimeout(timer);
      dead = `the ${what} (${python}) exited (${howEnded(r)})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-5).join('\n')}` : ''}`;
      reject(new Error(dead));
      for (const w of waiting.values()) w.onLost(dead);
      waiting.clear();
    });
  });
  try {
    await ready;
  } catch (error) {
    proc.kill('SIGKILL');
    if (mustStart) throw error;
  }
  const send = (message: object) => {
    if (!dead) proc.stdin!.write(JSON.stringify(message) + '\n');
  };
  const run = (command: LaunchCommand): Running => {
    const n = id++;
    let pid: number | undefined;
    const done = new Promise<Exit>((resolve) => {
      const lost = (why: string) => {
        // The launcher died under its process: nothing else will kill that process's group now.
        if (pid !== undefined) killGroup(pid);
        resolve(lostExit(command.timeout_s, why));
      };
      if (dead) return lost(dead);
      waiting.set(n, {
        onPid: (p) => {
          pid = p;
        },
        onExit: resolve,
        onLost: lost,
      });
      send({ id: n, ...command });
    });
    return { done, kill: () => send({ id: n, kill: true }), start: command.start };
  };
  const close = async () => {
    if (dead) return;
    proc.stdin!.end();
    const timer = setTimeout(() => proc.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
    await proc;
    clearTimeout(timer);
  };
  return { run, close };
}

/** The launcher process, with its output piped (stdout carries the protocol) and killed if Node exits. */
function spawnLauncher(python: string, module: LauncherModule, threads: number) {
  return execa(python, ['-E', '-B', '-m', module, '--threads', String(threads)], {
    cwd: HARNESS_DIR,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    cleanup: true,
  });
}

/** How an ended launcher ended: why it could not start, else its signal or exit code. */
function howEnded(r: Awaited<ReturnType<typeof spawnLauncher>>): string | undefined {
  return r.exitCode === undefined && !r.signal
    ? r.originalMessage || r.shortMessage
    : (r.signal ?? `code ${r.exitCode}`);
}

/** The exit of a process whose launcher was lost (or never started): a spawn error naming why. */
function lostExit(timeoutS: number, why: string): Exit {
  return {
    exitCode: undefined,
    signal: undefined,
    timedOut: false,
    timeoutS,
    spawnError: why,
    stderrTail: '',
    stdoutTail: '',
  };
}

/** SIGKILL to a process group, only for a launcher that died under its processes. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}

/** Runs one process (a probe, a baseline) through a cold launcher of `python`; resolves once it has ended. */
export async function runOnce(python: string, command: Omit<LaunchCommand, 'start' | 'python'>): Promise<Exit> {
  const launcher = await startLauncher(python, 'benchgrid_harness.launch', command.threads, false);
  try {
    return await launcher.run({ ...command, start: 'cold', python }).done;
  } finally {
    await launcher.close();
  }
}
