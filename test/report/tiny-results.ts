// A small benchgrid-format results file (format_version 1), built by hand for the report tests.
import path from 'node:path';
import { FIXTURES, write } from '../helpers.ts';

/** The spec whose page fits these results. */
export const TINY_SPEC = path.join(FIXTURES, 'report/tiny-report.yaml');

function perProcess(samples: number[][]) {
  return samples.map((s, index) => {
    const sorted = [...s].sort((a, b) => a - b);
    return {
      index,
      n: s.length,
      median_ms: sorted[Math.floor(s.length / 2)],
      min_ms: sorted[0],
      max_ms: sorted[s.length - 1],
      iqr_ms: 0.01,
      stopped_by: 'samples',
      phases_s: { imports: 1.5, timed: 0.1 },
      wall_s: 2.25,
      cpus: null,
      start: 'cold',
    };
  });
}

/** A measured cell; `reference: true` leaves `exact` out, as the seed does for the reference tool. */
function ok(samples: number[][], extra: Record<string, unknown> = {}, reference = false) {
  const medians = perProcess(samples)
    .map((p) => p.median_ms)
    .sort((a, b) => a - b);
  const mid = medians.length / 2;
  const median = medians.length % 2 ? medians[Math.floor(mid)] : (medians[mid - 1] + medians[mid]) / 2;
  const cell: Record<string, unknown> = {
    status: 'ok',
    statuses: ['ok'],
    reason: null,
    median_ms: median,
    min_ms: medians[0],
    max_ms: medians[medians.length - 1],
    processes: samples.length,
    samples_per_process: samples.map((s) => s.length),
    samples_ms: samples,
    per_process: perProcess(samples),
    memory: { peak_rss_bytes: [300 * 1024 * 1024, 310 * 1024 * 1024], cuda_peak_allocated_bytes: [null, null] },
    tool_version: null,
    error: null,
    max_abs_diff: null,
    exact: null,
    ...extra,
  };
  if (reference) delete cell.exact;
  return cell;
}

/** The raw JSON: one subject, a measured reference with samples, a mismatch in seconds, a failure, an unsupported cell with markup in its reason; one page cell (tv_fx) is missing, as in a partial run. */
export function tinyResultsJson(): Record<string, unknown> {
  return {
    format_version: 1,
    spec: { name: 'tiny_report', title: 'Tiny <ResNet>, CPU', digest: null, device: 'cpu' },
    partial: true,
    measured_on: '2026-12-01',
    host: { hostname: 'test-host', cpus: 2 },
    versions: { python: '3.11.7', torch: '2.14.1' },
    harness: 'benchgrid 0.1.0',
    run: { jobs: 1, start: 'cold' },
    resnet18: {
      meta: {
        environment: {
          hostname: 'test-host',
          platform: 'Linux-6.1-x86_64',
          cpu_count: 2,
          device: 'cpu',
          gpu_name: null,
        },
        versions: { torch: '2.14.1+cpu', nnsight: '0.8.1' },
        protocol: { warmups: 1, samples: 3, processes: 2, min_samples: 2, budget_s_per_cell: 5 },
        aa_noise: {
          pairs: 1,
          medians_ms: [2.5, 2.6],
          max_rel_diff: 0.04,
          cell: 'A/single_module_output/hooks/resnet18',
        },
      },
      not_measured: [],
      groups: {
        'A/single_module_output/raw/resnet18': ok([
          [2.1, 2.0, 2.2],
          [2.3, 2.2, 2.4],
        ]),
        'A/single_module_output/hooks/resnet18': ok(
          [
            [2.5, 2.4, 2.6],
            [2.7, 2.6, 2.8],
          ],
          {},
          true,
        ),
        'A/single_module_output/nnsight/resnet18': ok(
          [
            [1200, 1234.5, 1300],
            [999.996, 990, 1010],
          ],
          { exact: 'mismatch', max_abs_diff: 0.5, tool_version: '0.8.1' },
        ),
        'A/replacement_edit/raw/resnet18': {
          status: 'error',
          statuses: ['error'],
          reason: 'ValueError: boom',
          error: {
            type: 'ValueError',
            message: 'boom',
            tail: 'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: boom',
          },
        },
        'A/replacement_edit/hooks/resnet18': ok(
          [
            [3.0, 3.1, 3.2],
            [3.3, 3.4, 3.5],
          ],
          {},
          true,
        ),
        'A/replacement_edit/nnsight/resnet18': {
          status: 'error',
          statuses: ['error'],
          reason: 'RuntimeError: found two devices, cuda:0 and cpu\nTraceback (most recent call last): ...',
          error: { type: 'RuntimeError', message: 'found two devices, cuda:0 and cpu', tail: null },
        },
        'A/replacement_edit/tv_fx/resnet18': {
          status: 'unsupported',
          statuses: ['unsupported'],
          reason: 'a feature extractor <script>alert(1)</script> reads | outputs',
        },
      },
    },
  };
}

/** Writes the tiny results file into a directory; returns its path. */
export function writeTinyResults(dir: string): string {
  return write(dir, 'results.json', JSON.stringify(tinyResultsJson(), null, 1));
}
