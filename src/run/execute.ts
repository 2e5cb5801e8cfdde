// Executes jobs: one fresh Python process per job, at most `concurrency` at once, never two processes
// of the same cell at once; each finished process is journaled before the next decision.
import fs from 'node:fs';
import type { Job } from './jobs.ts';
import type { ProcessRecord } from './journal.ts';
import { outcomeOf } from './outcome.ts';
import type { Launcher, ProcessJob } from './launcher.ts';
import type { Running } from './spawn.ts';

/** How to start a job's process: the launcher of its environment and the process as data. */
export interface Launch {
  launcher: Launcher;
  process: ProcessJob;
}

/** Options of an execution. */
export interface ExecuteOptions {
  jobs: Job[];
  concurrency: number;
  /** CPU sets to pin workers to, one per slot (empty: no pinning). */
  cpuSets: number[][];
  launch: (job: Job, cpus: number[] | null) => Launch;
  onStart: (job: Job) => void;
  onDone: (record: ProcessRecord, job: Job) => void;
  /** Set by a signal handler: no new process starts, running ones are killed. */
  stopped: () => boolean;
  /** Registers the function that kills everything running (called on SIGINT/SIGTERM). */
  onKillable: (kill: () => void) => void;
  /**
   * Asked when a job is picked (no other process of its cell running): true drops it unstarted
   * (precision-driven sampling: the cell is already precise). Absent: every job runs.
   */
  skip?: (job: Job) => boolean;
  /** Told of every job `skip` dropped. */
  onSkip?: (job: Job) => void;
}

/** Runs every job; resolves when all finished or the run was stopped. */
export async function execute(o: ExecuteOptions): Promise<void> {
  const pending = [...o.jobs];
  const running = new Map<number, { job: Job; proc: Running }>();
  const busyCells = new Set<string>();
  const freeSlots = Array.from({ length: Math.max(1, o.concurrency) }, (_, i) => i).reverse();
  o.onKillable(() => {
    for (const { proc } of running.values()) proc.kill();
  });

  await new Promise<void>((resolve) => {
    const pump = () => {
      while (!o.stopped() && freeSlots.length > 0) {
        const i = pending.findIndex((j) => !busyCells.has(j.cell.id));
        if (i < 0) break;
        const [job] = pending.splice(i, 1);
        if (o.skip?.(job)) {
          o.onSkip?.(job);
          continue;
        }
        const slot = freeSlots.pop()!;
        const cpus = o.cpuSets.length > 0 ? o.cpuSets[slot % o.cpuSets.length] : null;
        const launch = o.launch(job, cpus);
        fs.rmSync(launch.process.result, { force: true });
        busyCells.add(job.cell.id);
        o.onStart(job);
        const started = new Date();
        const proc = launch.launcher.start({ ...launch.process, cpus: cpus ?? undefined });
        running.set(slot, { job, proc });
        proc.done.then((exit) => {
          running.delete(slot);
          busyCells.delete(job.cell.id);
          freeSlots.push(slot);
          const wall = (Date.now() - started.getTime()) / 1000;
          if (!o.stopped()) {
            const outcome = outcomeOf(exit, launch.process.result, { cell: job.cell.id, index: job.index, mode: launch.process.mode });
            o.onDone({ type: 'process', key: job.key, cell: job.cell.id, kind: job.kind, index: job.index, started: started.toISOString(), wall_s: wall, cpus, start: proc.start ?? launch.launcher.mode, outcome }, job);
          }
          if (running.size === 0 && (o.stopped() || pending.length === 0)) resolve();
          else pump();
        });
      }
      if (running.size === 0 && (o.stopped() || pending.length === 0)) resolve();
    };
    pump();
  });
}
