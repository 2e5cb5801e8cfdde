// Single cell processes, started exactly as `benchgrid run` starts them (same request, environment and
// launcher), and the hand-written baseline process; each timed from spawn to exit.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildRequest, type Job } from '../src/run/jobs.ts';
import type { Launcher } from '../src/executors/local/launcher.ts';
import { outcomeOf } from '../src/records/outcome.ts';
import { runOnce } from '../src/executors/local/spawn.ts';
import { REPO_ROOT } from '../src/repository.ts';
import { pythonPathOf } from '../src/run/run-plan.ts';
import type { Protocol } from '../src/spec/types.ts';
import type { ValidSpec } from '../src/commands/load-spec.ts';
import { median } from '../src/stats/summary.ts';

/** One measured process. */
export interface ProcessRun {
  side: string;
  round: number;
  /** Median of its timed samples (ms). */
  median_ms: number;
  samples_ms: number[];
  /** Spawn to exit, seen from Node. */
  wall_s: number;
  /** Result file written (mtime) to exit seen from Node: interpreter teardown and reaping. */
  exit_s: number | null;
  phases_s: Record<string, number | null>;
  peak_rss_bytes: number | null;
  verdict: string | null;
}

let counter = 0;

/** Runs one process of `cellId` (mode time or memory) through `launcher`; throws if it fails. */
export async function harnessProcess(
  loaded: ValidSpec,
  protocol: Protocol,
  cellId: string,
  launcher: Launcher,
  python: string,
  dir: string,
  side: string,
  round: number,
  mode: 'time' | 'memory' = 'time',
): Promise<ProcessRun> {
  const cell = loaded.plan.cells.find((c) => c.id === cellId);
  if (cell?.status !== 'planned') throw new Error(`bench: ${cellId} is not a planned cell of ${loaded.spec.name}`);
  const job: Job = {
    key: `${cellId}#${mode}#${round}`,
    cell,
    kind: mode,
    index: round % Math.max(1, protocol.processes),
  };
  const base = path.join(dir, `${counter++}-${side.replace(/\//g, '-')}`);
  const files = {
    request: `${base}.request.json`,
    result: `${base}.result.json`,
    stdout: `${base}.stdout.log`,
    stderr: `${base}.stderr.log`,
    tmp: `${base}.tmp`,
  };
  fs.writeFileSync(
    files.request,
    JSON.stringify(
      buildRequest(
        {
          spec: loaded.spec,
          manifests: loaded.manifests,
          protocol,
          device: 'cpu',
          schedule: { kind: 'sequential', seed: 0 },
        },
        job,
      ),
      null,
      1,
    ) + '\n',
  );
  fs.mkdirSync(files.tmp, { recursive: true });
  const started = performance.now();
  const proc = launcher.start({
    mode,
    python,
    request: files.request,
    result: files.result,
    stdout: files.stdout,
    stderr: files.stderr,
    pythonPath: pythonPathOf(loaded.spec, cell),
    threads: protocol.threads,
    tmpdir: files.tmp,
    cwd: REPO_ROOT,
    timeoutS: protocol.timeout_s,
  });
  const exit = await proc.done;
  const endedWall = Date.now();
  const wall = (performance.now() - started) / 1000;
  const outcome = outcomeOf(exit, files.result, { cell: cellId, index: job.index, mode });
  if (outcome.kind !== 'result' || outcome.result.status !== 'ok') {
    throw new Error(
      `bench: ${side} process of ${cellId} failed: ${outcome.kind === 'failed' ? outcome.reason : JSON.stringify(outcome.result.error ?? outcome.result.reason)}`,
    );
  }
  const r = outcome.result;
  const samples = r.timing?.samples_ms ?? [];
  return {
    side,
    round,
    median_ms: samples.length ? median(samples) : NaN,
    samples_ms: samples,
    wall_s: wall,
    exit_s: Math.max(0, (endedWall - fs.statSync(files.result).mtimeMs) / 1000),
    phases_s: r.phases_s,
    peak_rss_bytes: r.memory?.peak_rss_bytes ?? null,
    verdict: r.exact?.verdict ?? null,
  };
}

/** The hand-written loop (bench/handloop.py) on the raw cell's subject, with the protocol's warm-ups and samples. */
export async function handProcess(
  loaded: ValidSpec,
  protocol: Protocol,
  python: string,
  dir: string,
  side: string,
  round: number,
): Promise<ProcessRun> {
  const subject = loaded.spec.subjects.resnet18;
  const started = performance.now();
  // Through the cold launcher, as a cell process starts (the environment, the time limit); its stdout is the answer.
  const stdout = path.join(dir, `${counter++}-${side}.stdout.log`);
  const exit = await runOnce(python, {
    argv: [
      path.join(REPO_ROOT, 'bench/handloop.py'),
      JSON.stringify(subject.inputs.shape),
      String(protocol.warmups),
      String(protocol.samples),
      String(protocol.threads),
      String(subject.model.seed),
      String(subject.inputs.seed),
    ],
    cwd: REPO_ROOT,
    pythonpath: [],
    threads: protocol.threads,
    tmpdir: null,
    stdout,
    stderr: `${stdout}.err`,
    cpus: null,
    timeout_s: protocol.timeout_s,
  });
  if (exit.exitCode !== 0)
    throw new Error(
      `bench: the hand-written loop failed (${exit.spawnError ?? exit.signal ?? `exit ${exit.exitCode}`}): ${exit.stderrTail}`,
    );
  const r = { stdout: fs.readFileSync(stdout, 'utf8') };
  const wall = (performance.now() - started) / 1000;
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as {
    samples_ms: number[];
    imports_s: number;
    build_s: number;
    work_s: number;
  };
  return {
    side,
    round,
    median_ms: median(out.samples_ms),
    samples_ms: out.samples_ms,
    wall_s: wall,
    exit_s: null,
    phases_s: { imports: out.imports_s, build: out.build_s, timed: out.work_s },
    peak_rss_bytes: null,
    verdict: null,
  };
}
