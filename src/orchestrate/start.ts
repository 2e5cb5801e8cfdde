// What `run` checks and says before its first cell: the processes it will judge by, the environments
// it has to build first, and the subject probe (every site is in its model).
import fs from 'node:fs';
import path from 'node:path';
import { EXIT, UserError } from '../errors.ts';
import { DEFAULT_SETTINGS } from '../compare/compute.ts';
import { cachedDownloadSize, describeSize } from '../env/size.ts';
import { listEnvs } from '../env/list.ts';
import type { RunPlan } from '../run/run-plan.ts';
import { probeSpec } from '../executors/local/probe.ts';
import { formatDiagnostic } from '../spec/diagnostics.ts';
import type { Spec } from '../spec/types.ts';

/** The fewest processes per cell with which compare and history can judge a change (between-process noise). */
export const MIN_JUDGED_PROCESSES = DEFAULT_SETTINGS.min_processes;

/** The warning a run with fewer processes per cell than compare needs deserves; null when it has enough. */
export function fewProcessesWarning(processes: number): string | null {
  if (processes >= MIN_JUDGED_PROCESSES) return null;
  return `warning: ${processes} process${processes === 1 ? '' : 'es'} per cell: compare and history need ${MIN_JUDGED_PROCESSES} to see the noise between processes, so they will call this run's cells unavailable and find no change in them. Fine for a quick look; measure with --processes ${MIN_JUDGED_PROCESSES} or more to compare.`;
}

/** Says which environments the run builds before its first cell (minutes, gigabytes), without starting any interpreter. */
export function announceBuilds(
  spec: Spec,
  envNames: Set<string>,
  python: string | null | undefined,
  log: (s: string) => void,
): void {
  if (python) return;
  const envs = [...envNames].flatMap((n) => (spec.environments[n] ? [spec.environments[n]] : []));
  const missing = listEnvs(envs)
    .filter((e) => e.builds.length === 0)
    .map((e) => e.env);
  if (missing.length === 0) return;
  const what = missing.map((e) => {
    if (e.layer) return `${e.id} (a layer over ${e.layer.base}: pip downloads the release, about a minute)`;
    const size = cachedDownloadSize(e);
    return `${e.id} (a full PyTorch install: minutes${size && !size.error ? `; ${describeSize(size)}` : ' and gigabytes'})`;
  });
  log(
    `first, ${missing.length === 1 ? 'one environment is' : `${missing.length} environments are`} built: ${what.join(', ')}. \`benchgrid plan\` says what each downloads; they are cached for later runs.`,
  );
}

/**
 * The subject probe at the start of a run: a site missing from its model refuses the run (exit 2)
 * with the spec's positions and the nearest module paths, before anything is measured.
 */
export async function probeBeforeRun(
  rp: RunPlan,
  jobs: RunPlan['jobs'],
  pythons: Record<string, string>,
  log: (s: string) => void,
): Promise<void> {
  const todo = new Set(jobs.map((j) => j.cell.id));
  const problems = (await probeSpec(rp.spec, rp.plan, (id) => todo.has(id), pythons, log)).diagnostics.filter(
    (d) => d.severity === 'error',
  );
  if (problems.length === 0) return;
  const file = path.relative(process.cwd(), rp.spec.file) || rp.spec.file;
  throw new UserError(
    `${file}: the subject probe found ${problems.length === 1 ? 'a site' : `${problems.length} sites`} every cell reading it would fail on; nothing was run. Fix the spec (\`benchgrid validate --probe ${file}\` checks it), or pass --no-probe to run anyway.`,
    EXIT.usage,
    problems.map((d) => formatDiagnostic(d)),
  );
}

/**
 * Files a GPU driver leaves where torch can see a CUDA device: NVIDIA's (/proc/driver/nvidia, and
 * /dev/nvidiactl besides /dev/nvidia0, since a container given only its second GPU has /dev/nvidia1),
 * WSL's /dev/dxg, ROCm's /dev/kfd (torch.cuda is HIP there), Jetson's /dev/nvhost-ctrl-gpu.
 */
export const GPU_DRIVER_FILES = [
  '/proc/driver/nvidia/version',
  '/dev/nvidiactl',
  '/dev/nvidia0',
  '/dev/dxg',
  '/dev/kfd',
  '/dev/nvhost-ctrl-gpu',
];

/** What this machine shows of a GPU driver. */
export interface DriverFacts {
  platform: NodeJS.Platform;
  /** Which of GPU_DRIVER_FILES exist. */
  present: string[];
}

/** Reads the facts from files: no program is started (nvidia-smi may be absent, or take seconds). */
export function driverFacts(exists: (file: string) => boolean = fs.existsSync): DriverFacts {
  return { platform: process.platform, present: GPU_DRIVER_FILES.filter((f) => exists(f)) };
}

/**
 * Why a CUDA run cannot work on a machine, from its facts alone; null when only torch can tell (a
 * driver is there, or a system whose drivers leave no such files, Windows). torch's own check
 * (checkCuda) then decides, once its environment is built.
 */
export function noCudaHere(facts: DriverFacts): string | null {
  if (facts.platform === 'darwin') return 'macOS has no CUDA';
  if (facts.platform !== 'linux' || facts.present.length > 0) return null;
  return 'this machine shows no GPU driver (no /proc/driver/nvidia/version, no /dev/nvidia0)';
}

/**
 * Refuses a CUDA run on a machine without a GPU driver before any environment is built (a full
 * PyTorch install is gigabytes), as checkCuda refuses one after. With --python nothing is built, and
 * torch, which knows best, is asked instead. Export and Slurm prepare runs for other machines: they
 * never come here.
 */
export function refuseCudaBeforeBuilds(
  device: 'cpu' | 'cuda',
  python: string | null | undefined,
  facts: () => DriverFacts = driverFacts,
): void {
  if (device !== 'cuda' || python) return;
  const why = noCudaHere(facts());
  if (why)
    throw new UserError(
      `this spec runs on cuda, but ${why}; nothing was built. Run it where there is a GPU (see \`benchgrid export\`), or measure on the CPU with --device cpu.`,
    );
}
