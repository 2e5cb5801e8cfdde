// Starts one cell process: an explicit argument list (never a shell), an allow-listed environment,
// output to log files (never parsed), and a time limit that kills the whole process tree.
import fs from 'node:fs';
import { execa } from 'execa';
import type { Exit } from './outcome.ts';
import { cellEnv } from '../wire.ts';

/** The environment of a cell process (the allow-list is in wire.json, shared with the Python launchers). */
export function processEnv(pythonPath: string[], threads: number): Record<string, string> {
  return cellEnv(process.env, pythonPath, threads);
}

/** What to start. */
export interface SpawnSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  timeoutS: number;
  stdoutFile: string;
  stderrFile: string;
  /** CPU cores to pin to with taskset, when given. */
  cpus?: number[];
}

/** A running process that can be stopped from outside (Ctrl-C). */
export interface Running {
  done: Promise<Exit>;
  kill: () => void;
  /** How this process actually started, when a launcher decides per process (fork mode starts memory processes cold). */
  start?: 'cold' | 'fork';
}

const TAIL_BYTES = 4000;

/** Starts the process in its own process group, so a time-out or Ctrl-C kills its children too. */
export function spawnCell(s: SpawnSpec): Running {
  let timedOut = false;
  let command = s.command;
  let args = s.args;
  if (s.cpus && s.cpus.length > 0) {
    args = ['-c', s.cpus.join(','), command, ...args];
    command = 'taskset';
  }
  const child = execa(command, args, {
    env: s.env,
    extendEnv: false,
    cwd: s.cwd,
    detached: true,
    stdin: 'ignore',
    stdout: { file: s.stdoutFile },
    stderr: { file: s.stderrFile },
    reject: false,
    cleanup: true,
  });
  const killTree = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killTree();
  }, s.timeoutS * 1000);
  const done = child.then((r) => {
    clearTimeout(timer);
    // Whatever the cell left running (a tool's worker, a stray child) goes with it.
    killTree();
    const spawnError = r.failed && r.exitCode === undefined && !r.signal ? (r.originalMessage || r.shortMessage) : undefined;
    return {
      exitCode: r.exitCode,
      signal: r.signal,
      timedOut,
      timeoutS: s.timeoutS,
      spawnError: timedOut ? undefined : spawnError,
      stderrTail: tail(s.stderrFile),
      stdoutTail: tail(s.stdoutFile),
    };
  });
  return { done, kill: killTree };
}

/** The last bytes of a log file ('' when it cannot be read): the tail kept for error reports. */
export function tail(file: string): string {
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(Math.min(size, TAIL_BYTES));
    fs.readSync(fd, buf, 0, buf.length, Math.max(0, size - buf.length));
    fs.closeSync(fd);
    return buf.toString('utf8');
  } catch {
    return '';
  }
}
