// Synthetic results at the seed protocol, for testing the speed rule by simulation instead of timing.
import { mulberry32 } from '../../src/util/prng.ts';
import { median, summary } from '../../src/stats/summary.ts';
import type { CellResult, ProcessStats, Results, SubjectMeta } from '../../src/results/model.ts';

/** The noise model: process-level lognormal offsets, within-process lognormal noise, rare slow outliers. */
export interface NoiseModel {
  /** sd of log(process offset): between-process noise (0.02 is about 2%). */
  between: number;
  /** sd of log(sample / process level): within-process noise. */
  within: number;
  /** Probability that a sample is an outlier, and the mean of its exponential extra slowness (fraction). */
  outlierRate: number;
  outlierMean: number;
  processes: number;
  samples: number;
}

/** The seed protocol (3 processes x 20 samples) with realistic noise: 2% between, 1.5% within. */
export const PREDECESSOR_NOISE: NoiseModel = {
  between: 0.02,
  within: 0.015,
  outlierRate: 0.03,
  outlierMean: 0.3,
  processes: 3,
  samples: 20,
};

/** A seeded source of normal and exponential variates. */
export function variates(seed: number) {
  const uniform = mulberry32(seed);
  return {
    uniform,
    normal(): number {
      // Box-Muller; 1 - u keeps the logarithm finite.
      const u = 1 - uniform();
      const v = uniform();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    exponential(mean: number): number {
      return -mean * Math.log(1 - uniform());
    },
  };
}

/** Raw samples (ms) of one simulated cell: true level `ms`, per the noise model. */
export function simulateSamples(v: ReturnType<typeof variates>, ms: number, noise: NoiseModel): number[][] {
  return Array.from({ length: noise.processes }, () => {
    const level = ms * Math.exp(noise.between * v.normal());
    return Array.from({ length: noise.samples }, () => {
      const s = level * Math.exp(noise.within * v.normal());
      return v.uniform() < noise.outlierRate ? s * (1 + v.exponential(noise.outlierMean)) : s;
    });
  });
}

/** A measured cell with the statistics benchgrid derives from raw samples. */
export function measuredCell(id: string, samples: number[][] | null, overrides: Partial<CellResult> = {}): CellResult {
  const [group, contract, tool, subject] = id.split('/');
  const per = samples?.map((s, index) => processStats(index, s)) ?? null;
  const medians = per?.map((p) => p.median_ms) ?? [];
  return {
    id,
    group,
    contract,
    tool,
    subject,
    status: 'ok',
    statuses: ['ok'],
    reason: null,
    median_ms: per ? median(medians) : null,
    min_ms: per ? Math.min(...medians) : null,
    max_ms: per ? Math.max(...medians) : null,
    processes: samples?.length ?? null,
    samples_per_process: samples?.map((s) => s.length) ?? null,
    exact: null,
    max_abs_diff: null,
    samples_ms: samples,
    per_process: per,
    memory: null,
    tool_version: null,
    error: null,
    ...overrides,
  };
}

/** Subject metadata for simulated or hand-built runs. */
export function subjectMeta(environment: Record<string, unknown>, overrides: Partial<SubjectMeta> = {}): SubjectMeta {
  return {
    environment: {
      hostname: 'sim',
      platform: 'Linux-6.1-x86_64',
      python: '3.12.3',
      cpu_count: 16,
      torch_num_threads: 1,
      device: 'cpu',
      gpu_name: null,
      ...environment,
    },
    versions: { python: '3.12.3', torch: '2.5.1', torchvision: '0.20.1', numpy: '2.1.0' },
    protocol: { warmups: 3, samples: 20, processes: 3 },
    aa_noise: null,
    ...overrides,
  };
}

/** A benchgrid-layout results model holding the given cells (all of one subject). */
export function resultsOf(cells: CellResult[], meta: SubjectMeta | null = subjectMeta({})): Results {
  const subject = cells[0]?.subject ?? 'sim';
  return {
    format_version: 1,
    origin: 'benchgrid',
    spec: { name: 'sim', title: 'simulated', digest: null, device: String(meta?.environment.device ?? 'cpu') },
    partial: false,
    measured_on: '2026-11-30',
    host: {},
    versions: {},
    harness: 'simulated',
    subjects: { [subject]: { meta, not_measured: [] } },
    cells,
    page_rows: null,
    run: null,
  };
}

function processStats(index: number, s: number[]): ProcessStats {
  const stats = summary(s);
  return {
    index,
    median_ms: stats.median,
    min_ms: stats.min,
    max_ms: stats.max,
    iqr_ms: stats.iqr,
    n: stats.n,
    stopped_by: 'samples',
    phases_s: {},
    wall_s: 0,
    cpus: null,
    start: 'cold',
  };
}
