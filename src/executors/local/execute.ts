// Executes jobs: one fresh Python process per job, at most `concurrency` at once, never two processes
// of the same cell at once; each finished process is journaled before the next decision.
import fs from 'node:fs';
import type { Job } from '../../run/jobs.ts';
import type { ProcessRecord } from '../../records/journal.ts';
import { outcomeOf, type Exit } from '../../records/outcome.ts';
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
  /** Told of every finished process (with how it exited); an exception here stops the run and is thrown by execute. */
  onDone: (record: ProcessRecord, job: Job, exit: Exit) => void;
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

/**
 * Runs every job; resolves when all finished or the run was stopped. An exception while starting a job
 * or journaling one (a full disk) stops the run as a signal does: nothing new starts, what runs is
 * killed, and once every process is gone the exception is thrown; what was journaled before stays.
 */
export async function execute(o: ExecuteOptions): Promise<void> {
  const pending = [...o.jobs];
  const running = new Map<number, { job: Job; proc: Running }>();
  const busyCells = new Set<string>();
  const freeSlots = Array.from({ length: Math.max(1, o.concurrency) }, (_, i) => i).reverse();
  const killAll = () => {
    for (const { proc } of running.values()) proc.kill();
  };
  o.onKillable(killAll);
  let failure: { error: unknown } | null = null;
  const stopped = () => failure !== null || o.stopped();
  const fail = (error: unknown) => {
    failure ??= { error };
    killAll();
  };

  await new Promise<void>((resolve) => {
    const finishIfDone = () => {
      if (running.size === 0 && (stopped() || pending.length === 0)) resolve();
    };
    const pump = () => {
      while (!stopped() && freeSlots.length > 0) {
        const i = pending.findIndex((j) => !busyCells.has(j.cell.id));
        if (i < 0) break;
        const [job] = pending.splice(i, 1);
        if (o.skip?.(job)) {
          o.onSkip?.(job);
          continue;
        }
        try {
          start(job);
        } catch (error) {
          fail(error);
        }
      }
      finishIfDone();
    };
    const start = (job: Job) => {
      const slot = freeSlots[freeSlots.length - 1];
      const cpus = o.cpuSets.length > 0 ? o.cpuSets[slot % o.cpuSets.length] : null;
      const launch = o.launch(job, cpus);
      fs.rmSync(launch.process.result, { force: true });
      freeSlots.pop();
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
        if (!stopped()) {
          try {
            o.onDone(recordOf(job, launch, exit, { started, wall, cpus, start: proc.start }), job, exit);
          } catch (error) {
            fail(error);
          }
        }
        pump();
      });
    };
    pump();
  });
  if (failure) throw (failure as { error: unknown }).error;
}

/** The journal record of one finished process: how it ran and its outcome, classified from its exit and result file. */
function recordOf(
  job: Job,
  launch: Launch,
  exit: Exit,
  ran: { started: Date; wall: number; cpus: number[] | null; start: Running['start'] },
): ProcessRecord {
  const outcome = outcomeOf(exit, launch.process.result, {
    cell: job.cell.id,
    index: job.index,
    mode: launch.process.mode,
  });
  return {
    type: 'process',
    key: job.key,
    cell: job.cell.id,
    kind: job.kind,
    index: job.index,
    started: ran.started.toISOString(),
    wall_s: ran.wall,
    cpus: ran.cpus,
    start: ran.start ?? launch.launcher.mode,
    outcome,
  };
}
