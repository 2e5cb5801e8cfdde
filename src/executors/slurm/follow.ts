// Follows an array job until every task ended: progress from the queue and the shards' journals, and
// each task's final state from squeue, else sacct, else the exit file the batch script leaves.
import fs from 'node:fs';
import path from 'node:path';
import { LAYOUT } from './script.ts';
import { sacctTasks, squeueTasks, TERMINAL, type TaskInfo } from './queue.ts';

/** A task's state as followed; `final` once it will not change. */
export interface TaskState {
  task: number;
  state: string;
  reason: string | null;
  exitCode: string | null;
  source: 'squeue' | 'sacct' | 'exit file' | 'none';
  final: boolean;
}

/** What is known at one poll. */
export interface Observation {
  squeue: Map<number, TaskInfo>;
  sacct: Map<number, TaskInfo> | null;
  exitFiles: Map<number, number>;
  /** Consecutive polls each task has been missing from the queue (a task must stay missing twice). */
  absent: Map<number, number>;
}

/** Pure: every task's state from one observation. */
export function settle(tasks: number, o: Observation): TaskState[] {
  return Array.from({ length: tasks }, (_, t) => {
    const rc = o.exitFiles.get(t);
    const exitCode = rc === undefined ? null : `${rc}:0`;
    const q = o.squeue.get(t);
    if (q)
      return { task: t, state: q.state, reason: q.reason, exitCode, source: 'squeue', final: TERMINAL.has(q.state) };
    const a = o.sacct?.get(t);
    if (a && TERMINAL.has(a.state))
      return { task: t, state: a.state, reason: null, exitCode: a.exitCode ?? exitCode, source: 'sacct', final: true };
    if (rc !== undefined)
      return {
        task: t,
        state: rc === 0 ? 'COMPLETED' : 'FAILED',
        reason: null,
        exitCode,
        source: 'exit file',
        final: true,
      };
    const gone = (o.absent.get(t) ?? 0) >= 2;
    return {
      task: t,
      state: gone ? 'UNKNOWN' : 'PENDING',
      exitCode: null,
      source: 'none',
      final: gone,
      reason: gone
        ? 'it left the queue without an exit status (cancelled while pending, or killed); this cluster keeps no accounting to ask'
        : null,
    };
  });
}

/** The last lines of a task's log, for reports of failed tasks. */
export function logTail(dir: string, task: number, lines = 15): string {
  try {
    const text = fs.readFileSync(path.join(dir, LAYOUT.log(task)), 'utf8');
    return text.trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log: the task never started)';
  }
}

function exitFiles(dir: string, tasks: number): Map<number, number> {
  const out = new Map<number, number>();
  for (let t = 0; t < tasks; t++) {
    try {
      const n = Number(fs.readFileSync(path.join(dir, LAYOUT.exit(t)), 'utf8').trim());
      if (Number.isInteger(n)) out.set(t, n);
    } catch {
      // not finished (or killed before it could write one)
    }
  }
  return out;
}

function processesDone(dir: string, tasks: number): { done: number; total: number } {
  let done = 0;
  let total = 0;
  for (let t = 0; t < tasks; t++) {
    const shard = path.join(dir, LAYOUT.shard(t));
    try {
      total += (JSON.parse(fs.readFileSync(path.join(shard, 'bundle.json'), 'utf8')).jobs as unknown[]).length;
      const journal = fs.readFileSync(path.join(shard, 'journal.jsonl'), 'utf8');
      const keys = new Set<string>();
      for (const line of journal.split('\n')) {
        try {
          const r = JSON.parse(line);
          if (r.type === 'process') keys.add(r.key);
        } catch {
          // a torn last line
        }
      }
      done += keys.size;
    } catch {
      // no journal yet, or an unreadable shard (its task will fail and be reported)
    }
  }
  return { done, total };
}

/** Options of a follow. */
export interface FollowOptions {
  pollS: number;
  log: (line: string) => void;
  stopped: () => boolean;
}

/** Polls until every task is final (or the follower is stopped); returns the last states. */
export async function follow(dir: string, jobId: string, tasks: number, o: FollowOptions): Promise<TaskState[]> {
  const absent = new Map<number, number>();
  let last = '';
  for (;;) {
    let squeue: Map<number, TaskInfo>;
    try {
      squeue = await squeueTasks(jobId);
    } catch (error) {
      o.log(`${(error as Error).message}; trying again`);
      await sleep(o.pollS);
      continue;
    }
    for (let t = 0; t < tasks; t++) absent.set(t, squeue.has(t) ? 0 : (absent.get(t) ?? 0) + 1);
    const missing = [...absent.values()].some((n) => n > 0);
    const states = settle(tasks, {
      squeue,
      sacct: missing ? await sacctTasks(jobId) : null,
      exitFiles: exitFiles(dir, tasks),
      absent,
    });
    const counts = new Map<string, number>();
    for (const s of states) counts.set(s.state, (counts.get(s.state) ?? 0) + 1);
    const p = processesDone(dir, tasks);
    const line = `slurm job ${jobId}: ${[...counts].map(([k, n]) => `${n} ${k.toLowerCase()}`).join(', ')}; ${p.done}/${p.total} cell processes done`;
    if (line !== last) o.log(line);
    last = line;
    if (states.every((s) => s.final) || o.stopped()) return states;
    await sleep(o.pollS);
  }
}

function sleep(s: number): Promise<void> {
  return new Promise((r) => setTimeout(r, s * 1000));
}
