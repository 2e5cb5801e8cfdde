// Hand-built runs for the compare tests: a small CPU run of the seed's subject, in benchgrid's layout.
import type { CellResult, Results } from '../../src/results/model.ts';
import { measuredCell, resultsOf, PREDECESSOR_NOISE, simulateSamples, subjectMeta, variates } from './simulate.ts';

/** Where the committed copy of `cpuRun()` lives (kept equal to it by a test). */
export const CPU_RUN_FIXTURE = 'test/fixtures/compare/cpu-run.results.json';

/** Options of a hand-built CPU run. */
export interface CpuRunOptions {
  /** Seed of the simulated samples. */
  seed?: number;
  /** Multiplies every timing: 1.1 is a 10% slowdown. */
  scale?: number;
  /** Multiplies one tool's timings on top of `scale`: { nnsight: 1.1 } slows nnsight by a further 10%. */
  toolScale?: Record<string, number>;
  /** Overrides of the subject's environment (e.g. another thread count). */
  environment?: Record<string, unknown>;
}

const CPU_ENVIRONMENT = {
  hostname: 'ci-runner',
  platform: 'Linux-6.8.0-x86_64-with-glibc2.39',
  python: '3.12.3',
  cpu: 'AMD EPYC 7763 64-Core Processor',
  cpu_count: 16,
  torch_num_threads: 1,
  omp_num_threads_env: '1',
  device: 'cpu',
  gpu_name: null,
};

/**
 * A CPU run of a few of the seed's resnet18 cells, with raw samples: some ok, one whose exactness got
 * worse than the seed's (nnsight: bit -> close), status and reason changes, and a cell the seed lacks.
 */
export function cpuRun(opts: CpuRunOptions = {}): Results {
  const v = variates(opts.seed ?? 7);
  const scale = opts.scale ?? 1;
  const toolScale = (id: string) => opts.toolScale?.[id.split('/')[2]] ?? 1;
  const ok = (id: string, ms: number, extra: Partial<CellResult> = {}) =>
    measuredCell(id, simulateSamples(v, ms * scale * toolScale(id), PREDECESSOR_NOISE), extra);
  const cells: CellResult[] = [
    ok('A/single_module_output/raw/resnet18', 12.0),
    ok('A/single_module_output/hooks/resnet18', 12.1),
    ok('A/single_module_output/nnsight/resnet18', 13.4, { exact: 'close', max_abs_diff: 2e-7, tool_version: '0.8.1' }),
    ok('A/single_module_output/tl_record/resnet18', 150.0, { exact: 'bit', tool_version: '2.36.3' }),
    ok('A/single_module_output/tv_fx/resnet18', 11.2, { exact: 'bit' }),
    measuredCell('A/single_module_output/tl_extract_dataset/resnet18', null, {
      status: 'unsupported',
      statuses: ['unsupported'],
      reason: 'dataset extraction is measured on the dataset contract',
      exact: undefined,
    }),
    measuredCell('A/single_module_output/thingsvision/resnet18', null, {
      status: 'error',
      statuses: ['error'],
      reason: 'ImportError: thingsvision is not installed',
      exact: undefined,
      error: { type: 'ImportError', message: 'No module named thingsvision', tail: null },
    }),
    ok('A/single_module_output/fx_tracer/resnet18', 12.6, { exact: 'bit' }),
  ];
  const meta = subjectMeta(
    { ...CPU_ENVIRONMENT, ...opts.environment },
    {
      versions: {
        torch: '2.5.1+cpu',
        torchvision: '0.20.1+cpu',
        numpy: '2.1.0',
        nnsight: '0.8.1',
        torchlens: '2.36.3',
      },
      protocol: { warmups: 3, samples: 20, processes: 3, fresh_subprocess: true },
      aa_noise: {
        pairs: 2,
        medians_ms: [12.02, 11.9],
        max_rel_diff: 0.01,
        cell: 'A/single_module_output/raw/resnet18',
      },
    },
  );
  const r = resultsOf(cells, meta);
  return {
    ...r,
    spec: { name: 'resnet18-cpu', title: 'ResNet-18 on CPU', digest: null, device: 'cpu' },
    measured_on: '2026-11-30',
    harness: 'benchgrid run',
  };
}
