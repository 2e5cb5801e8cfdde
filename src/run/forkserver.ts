// The fork start mode: one clean Python parent per environment that has imported torch and
// torchvision and nothing else (runners/harness/benchgrid_harness/forkserver.py), forking a fresh child
// for every cell process. The children keep spawnCell's semantics: own process group, allow-listed
// environment, output to files, a time limit that kills the group, stray grandchildren killed on exit.
import readline from 'node:readline';
import { execa } from 'execa';
import { UserError } from '../errors.ts';
import { coldSpawn, harnessArgs, type Launcher, type ProcessJob } from './launcher.ts';
import type { Exit } from './outcome.ts';
import { processEnv, spawnCell, tail, type Running } from './spawn.ts';

/** How long the parent may take to import torch and torchvision (a loaded machine is slow). */
const READY_TIMEOUT_MS = 300_000;
/** How long close() waits for the parent to end by itself before killing it. */
const CLOSE_TIMEOUT_MS = 10_000;
const STDERR_KEEP = 4000;

interface Pending {
  onPid: (pid: number) => void;
  onExit: (code: number | undefined, signal: string | undefined) => void;
  onLost: (why: string) => void;
}

type ServerMessage =
  | { ready: true; pid: number; python: string; torch: string; modules: number }
  | { id: number; pid: number; exit?: number | null; signal?: string | null }
  | { id: number; error: string };

/** Options of the fork launcher. */
export interface ForkOptions {
  /**
   * Start memory-mode processes cold (default true). A forked child's peak RSS (ru_maxrss) counts only the
   * parent's pages it touches (shared library text it never faults in is not counted), so it is not the
   * quantity a cold process reports; timing processes are unaffected (docs/performance.md).
   */
  memoryCold?: boolean;
}

/** The running fork server: where commands go, who waits for an answer, and why it died (null while alive). */
interface Server {
  proc: ReturnType<typeof execa>;
  pending: Map<number, Pending>;
  dead: () => string | null;
  nextId: () => number;
}

/** Routes one line of the server's stdout to the process it is about; `onReady` for the ready line. */
function route(line: string, pending: Map<number, Pending>, onReady: () => void): void {
  let message: ServerMessage;
  try {
    message = JSON.parse(line) as ServerMessage;
  } catch {
    return; // not ours: the parent prints nothing else, but a library might
  }
  if ('ready' in message) return onReady();
  const p = pending.get(message.id);
  if (!p) return;
  if ('error' in message) {
    pending.delete(message.id);
    p.onLost(message.error);
  } else if (message.exit === undefined && message.signal === undefined) {
    p.onPid(message.pid);
  } else {
    pending.delete(message.id);
    p.onExit(message.exit ?? undefined, message.signal ?? undefined);
  }
}

/** Starts the server and waits until it has imported torch; a UserError when it cannot start. */
async function startServer(python: string, pythonPath: string[], threads: number): Promise<Server> {
  const proc = execa(python, ['-m', 'benchgrid_harness.forkserver'], {
    env: processEnv(pythonPath, threads), extendEnv: false, stdin: 'pipe', stdout: 'pipe', stderr: 'pipe', buffer: false, reject: false, cleanup: true,
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString('utf8')).slice(-STDERR_KEEP);
  });
  // A write to a parent that just died must not crash the orchestrator; the exit handler reports it.
  proc.stdin!.on('error', () => {});
  const pending = new Map<number, Pending>();
  let dead: string | null = null;
  let id = 1;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready after ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => route(line, pending, () => {
      clearTimeout(timer);
      resolve();
    }));
    void proc.then((r) => {
      clearTimeout(timer);
      dead = `the fork server (${python}) exited (${r.signal ?? `code ${r.exitCode}`})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-5).join('\n')}` : ''}`;
      reject(new Error(dead));
      for (const p of pending.values()) p.onLost(dead);
      pending.clear();
    });
  });
  try {
    await ready;
  } catch (error) {
    proc.kill('SIGKILL');
    throw new UserError(`--start fork: cannot start the fork server with ${python}: ${(error as Error).message}. Use --start cold.`);
  }
  return { proc, pending, dead: () => dead, nextId: () => id++ };
}

/** Forks one cell process through the server, with spawnCell's time limit and tree kill. */
function forkCell(server: Server, job: ProcessJob): Running {
  let timedOut = false;
  let pid: number | undefined;
  let killWanted = false;
  const killTree = () => {
    if (pid === undefined) {
      killWanted = true;
      return;
    }
    // The child called setsid() before its pid was reported, so its group is its pid (as spawnCell's is).
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  };
  const done = new Promise<Exit>((resolve) => {
    const finish = (e: Partial<Exit>) => {
      clearTimeout(timer);
      // Whatever the cell left running (a tool's worker, a stray child) goes with it.
      killTree();
      resolve({
        exitCode: undefined, signal: undefined, timedOut, timeoutS: job.timeoutS, spawnError: undefined,
        stderrTail: tail(job.stderr), stdoutTail: tail(job.stdout), ...e,
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      if (pid === undefined) finish({}); // never forked: nothing to kill, nothing to wait for
      else killTree();
    }, job.timeoutS * 1000);
    const dead = server.dead();
    if (dead) {
      finish({ spawnError: dead });
      return;
    }
    const id = server.nextId();
    server.pending.set(id, {
      onPid: (p) => {
        pid = p;
        if (killWanted) killTree();
      },
      onExit: (code, signal) => finish({ exitCode: signal ? undefined : code, signal }),
      onLost: (why) => finish({ spawnError: timedOut ? undefined : why }),
    });
    server.proc.stdin!.write(JSON.stringify({ id, argv: harnessArgs(job), cwd: job.cwd, env: job.env, stdout: job.stdout, stderr: job.stderr, cpus: job.cpus ?? null }) + '\n');
  });
  return { done, kill: killTree, start: 'fork' };
}

/** A launcher that forks cell processes from a clean parent started with `python`. */
export async function forkLauncher(python: string, pythonPath: string[], threads: number, options: ForkOptions = {}): Promise<Launcher> {
  const memoryCold = options.memoryCold ?? true;
  const server = await startServer(python, pythonPath, threads);
  const start = (job: ProcessJob): Running => {
    if (memoryCold && job.mode === 'memory') return { ...spawnCell(coldSpawn(job)), start: 'cold' };
    return forkCell(server, job);
  };
  const close = async () => {
    if (server.dead()) return;
    server.proc.stdin!.end();
    const timer = setTimeout(() => server.proc.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
    await server.proc;
    clearTimeout(timer);
  };
  return { mode: 'fork', start, close };
}
