// The lock of a run directory: one benchgrid writes a run's journal at a time. Two processes measuring
// the same cells into one journal would hold each process twice, with nothing flagged, so a second
// `run --out DIR` or `run --resume DIR` on a live directory is refused, naming the process that holds it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../../errors.ts';

/** The lock file inside a run directory. */
export const LOCK_FILE = 'run.lock';

/** What a lock file says about its holder. */
export interface LockHolder {
  pid: number;
  host: string;
  /** The kernel's boot id: a pid from an earlier boot names no process of this one. */
  boot: string | null;
  /** The holder's start time in clock ticks since boot (/proc/PID/stat field 22): tells a reused pid apart. */
  pid_start: string | null;
  started: string;
  command: string;
}

/** This process as a lock holder. */
export function thisHolder(command: string): LockHolder {
  return {
    pid: process.pid,
    host: os.hostname(),
    boot: bootId(),
    pid_start: processStart(process.pid),
    started: new Date().toISOString(),
    command,
  };
}

/**
 * Takes the lock of `dir` (created if missing) for `holder`, or throws a UserError (exit 2) naming the
 * live process that holds it. A lock left by a process that is gone (killed, machine rebooted) is
 * named through `log` and taken over. Returns the function that releases it.
 */
export function lockRunDir(dir: string, holder: LockHolder, log: (line: string) => void): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (create(file, holder)) return () => release(file, holder);
    const other = readHolder(file);
    if (other === undefined) continue; // released between our attempt and the read: try again
    const stale = staleness(other);
    if (stale === null) {
      const who = other
        ? `benchgrid process ${other.pid} on ${other.host}, running since ${other.started} (${other.command})`
        : 'a lock file benchgrid cannot read';
      throw new UserError(
        `${dir} is in use by ${who}. Wait for it to finish or stop it${other ? ` (kill ${other.pid})` : ''}; then resume with: benchgrid run --resume ${shown(dir)}. If that process is gone, delete ${shown(file)}.`,
      );
    }
    log(`${shown(dir)}: taking over a stale lock: ${stale}.`);
    fs.rmSync(file, { force: true });
  }
  throw new UserError(
    `${dir}: could not take the run lock (${LOCK_FILE} keeps changing); is another benchgrid starting there?`,
  );
}

/** Writes the lock file complete or not at all: a reader never sees half a holder. */
function create(file: string, holder: LockHolder): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(holder) + '\n');
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    // A file system without hard links: an exclusive create, whose content a reader may see half written.
    try {
      fs.writeFileSync(file, JSON.stringify(holder) + '\n', { flag: 'wx' });
      return true;
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw again;
    }
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/** Removes the lock if it is still ours (a lock taken over as stale by another process is not touched). */
function release(file: string, holder: LockHolder): void {
  const now = readHolder(file);
  if (now && now.pid === holder.pid && now.host === holder.host && now.started === holder.started)
    fs.rmSync(file, { force: true });
}

/** The holder in a lock file; undefined when there is no file, null when it cannot be read as one. */
export function readHolder(file: string): LockHolder | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const h = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isInteger(h.pid) || typeof h.host !== 'string' || typeof h.started !== 'string') return null;
    return {
      pid: h.pid!,
      host: h.host,
      boot: typeof h.boot === 'string' ? h.boot : null,
      pid_start: typeof h.pid_start === 'string' ? h.pid_start : null,
      started: h.started,
      command: typeof h.command === 'string' ? h.command : '',
    };
  } catch {
    return null;
  }
}

/**
 * Why a lock is stale, or null when its holder may be alive. Only a lock of this host can be judged:
 * one from another host (a shared file system) is taken as live.
 */
export function staleness(h: LockHolder | null): string | null {
  if (h === null) return null;
  const who = `process ${h.pid} on ${h.host}, started ${h.started}`;
  if (h.host !== os.hostname()) return null;
  const boot = bootId();
  if (h.boot && boot && h.boot !== boot) return `${who}, from before this machine's last boot`;
  if (!alive(h.pid)) return `${who}, is gone`;
  const start = processStart(h.pid);
  if (h.pid_start && start && h.pid_start !== start)
    return `${who}, is gone (pid ${h.pid} now belongs to another process)`;
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function bootId(): string | null {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Field 22 of /proc/PID/stat (start time), read after the command name, which may hold spaces. */
function processStart(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function shown(p: string): string {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}
