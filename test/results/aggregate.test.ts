// aggregate() without torch: hand-made process records of a real (tiny) spec's plan in, the results
// model out, every expected number computed by hand in the comments.
import { describe, expect, it } from 'vitest';
import { aggregate, type RunInfo } from '../../src/results/aggregate.ts';
import type { HostFacts } from '../../src/results/host.ts';
import type { ProcessRecord } from '../../src/records/journal.ts';
import type { ProcessResult } from '../../src/records/outcome.ts';
import { WIRE_VERSION } from '../../src/wire.ts';
import { okResult, processRecord, type Started, timed } from './process-records.ts';
import { loadTiny, tinyRun } from './tiny-run.ts';

const HOST: HostFacts = {
  cpus: 4,
  cpuModel: 'Test CPU',
  hostname: 'testhost',
  platform: 'linux',
  release: '6.1',
  loadAverage1m: 0.5,
};
const FX = 'A/single_module_output/tv_fx/resnet18';
const HOOKS = 'A/single_module_output/hooks/resnet18';
const UNSUPPORTED = 'A/replacement_edit/tv_fx/resnet18';

const tiny = await loadTiny();

const info = (cells: string[], processes: number): RunInfo =>
  tinyRun(tiny, cells, processes, { run: { start: 'cold' }, measuredOn: '2026-11-30', host: HOST });

type Extra = Partial<Pick<ProcessResult, 'status' | 'reason' | 'exact' | 'memory' | 'error'>>;

const AT: Started = { started: '2026-11-30T10:00:00.000Z', wall_s: 2, start: 'cold' };

/** A successful (or, with `extra`, unsupported/error) process that timed these samples. */
function ran(
  cell: string,
  kind: ProcessRecord['kind'],
  index: number,
  samples: number[],
  extra: Extra = {},
): ProcessRecord {
  const result = okResult(cell, index, {
    mode: kind === 'memory' ? 'memory' : 'time',
    timing: samples.length ? timed(samples) : null,
    versions: { python: '3.11.7', torch: '2.5.1', torchvision: '0.20.1', numpy: '2.1.0', library: null },
    environment: { executable: '/env/bin/python', platform: 'Linux-6.1-x86_64' },
    phases_s: { import: 1 },
    ...extra,
  });
  return processRecord(cell, kind, index, { kind: 'result', result }, AT);
}

/** A process that failed without a usable result (a crash, a time-out). */
function crashed(cell: string, kind: ProcessRecord['kind'], index: number, reason: string): ProcessRecord {
  const outcome = { kind: 'failed', status: 'error', reason, tail: 'Segmentation fault' } as const;
  return processRecord(cell, kind, index, outcome, { ...AT, wall_s: 1 });
}

describe('a cell from its processes', () => {
  it('reports the median of the per-process medians, and the smallest and largest process median as min/max', () => {
    const records = [
      ran(FX, 'time', 0, [3, 1, 2]), // median 2, IQR 2.5 - 1.5 = 1
      ran(FX, 'time', 1, [10, 4, 6, 8]), // median (6 + 8) / 2 = 7
      ran(FX, 'time', 2, [5]), // median 5
    ];
    const [cell] = aggregate(info([FX], 3), records).cells;
    expect(cell.status).toBe('ok');
    expect(cell.median_ms).toBe(5); // median of 2, 7, 5; not the median of all 8 samples (4.5)
    expect(cell.min_ms).toBe(2); // not the fastest sample (1)
    expect(cell.max_ms).toBe(7); // not the slowest sample (10)
    expect(cell.processes).toBe(3);
    expect(cell.samples_per_process).toEqual([3, 4, 1]);
    expect(cell.per_process!.map((p) => [p.median_ms, p.min_ms, p.max_ms])).toEqual([
      [2, 1, 3],
      [7, 4, 10],
      [5, 5, 5],
    ]);
    expect(cell.per_process![0].iqr_ms).toBe(1);
    expect(cell.samples_ms).toEqual([[3, 1, 2], [10, 4, 6, 8], [5]]);
  });

  it('orders processes by index whatever order the journal holds them in', () => {
    const records = [ran(FX, 'time', 1, [9]), ran(FX, 'time', 0, [1])];
    const [cell] = aggregate(info([FX], 2), records).cells;
    expect(cell.per_process!.map((p) => p.index)).toEqual([0, 1]);
    expect(cell.median_ms).toBe(5); // (1 + 9) / 2
  });

  it('keeps the worst exactness verdict and the largest difference of its processes', () => {
    const exact = (verdict: 'bit' | 'close', d: number) => ({
      exact: { verdict, max_abs_diff: d, reference: 'hooks', rtol: 1e-5, atol: 1e-6 },
    });
    const records = [ran(FX, 'time', 0, [1], exact('bit', 0)), ran(FX, 'time', 1, [1], exact('close', 2e-7))];
    const [cell] = aggregate(info([FX], 2), records).cells;
    expect(tiny.plan.cells.find((c) => c.id === FX)!.reference).not.toBeNull();
    expect(cell.exact).toBe('close');
    expect(cell.max_abs_diff).toBe(2e-7);
  });

  it('is an error with the first failure as its reason when any process fails, even if others succeeded', () => {
    const records = [
      ran(FX, 'time', 0, [1, 2, 3]),
      crashed(FX, 'time', 1, 'the process was killed by SIGSEGV before writing a result'),
    ];
    const [cell] = aggregate(info([FX], 2), records).cells;
    expect(cell.status).toBe('error');
    expect(cell.statuses).toEqual(['ok', 'error']);
    expect(cell.reason).toBe('the process was killed by SIGSEGV before writing a result');
    expect(cell.error).toEqual({ type: null, message: cell.reason, tail: 'Segmentation fault' });
    expect(cell.median_ms).toBeNull();
  });

  it('is unsupported when a process says so at run time, with its reason', () => {
    const records = [
      ran(FX, 'time', 0, [], { status: 'unsupported', reason: 'torchvision fx cannot trace this model' }),
    ];
    const [cell] = aggregate(info([FX], 1), records).cells;
    expect(cell).toMatchObject({
      status: 'unsupported',
      reason: 'torchvision fx cannot trace this model',
      median_ms: null,
    });
  });

  it('keeps a planned-unsupported cell with the plan reason, and leaves out cells that have not run (partial)', () => {
    const results = aggregate(info([UNSUPPORTED, HOOKS], 2), []);
    expect(results.cells.map((c) => [c.id, c.status])).toEqual([[UNSUPPORTED, 'unsupported']]);
    expect(results.cells[0].reason).toBe(tiny.plan.cells.find((c) => c.id === UNSUPPORTED)!.reason);
    expect(results.partial).toBe(true);
    expect(results.run?.missing).toEqual([HOOKS]);
  });

  it('collects the memory processes per measurement', () => {
    const mem = (rss: number) => ({ memory: { peak_rss_bytes: rss, cuda_peak_allocated_bytes: null } });
    const records = [ran(FX, 'time', 0, [1]), ran(FX, 'memory', 0, [], mem(100)), ran(FX, 'memory', 1, [], mem(300))];
    const [cell] = aggregate(info([FX], 1), records).cells;
    expect(cell.memory).toEqual({ peak_rss_bytes: [100, 300], cuda_peak_allocated_bytes: [null, null] });
  });
});

describe('A/A noise', () => {
  it('is the largest relative difference within pairs of processes 2k and 2k+1', () => {
    const records = [ran(FX, 'time', 0, [1]), ...[[10], [11], [20], [25]].map((s, i) => ran(HOOKS, 'aa', i, s))];
    const noise = aggregate(info([FX], 1), records).subjects.resnet18.meta!.aa_noise!;
    // pair 0: |10 - 11| / 10 = 0.1; pair 1: |20 - 25| / 20 = 0.25
    expect(noise).toEqual({ pairs: 2, medians_ms: [10, 11, 20, 25], max_rel_diff: 0.25, cell: HOOKS });
  });

  it('leaves out a pair with a failed process instead of pairing its survivor with the next pair', () => {
    const records = [
      ran(FX, 'time', 0, [1]),
      ran(HOOKS, 'aa', 0, [10]),
      crashed(HOOKS, 'aa', 1, 'timed out after 5 s (the process tree was killed)'),
      ran(HOOKS, 'aa', 2, [12]),
      ran(HOOKS, 'aa', 3, [9]),
    ];
    const noise = aggregate(info([FX], 1), records).subjects.resnet18.meta!.aa_noise!;
    // Only pair 1 is whole: |12 - 9| / 9 = 1/3. Pairing 10 with 12 (0.2) would be wrong.
    expect(noise.pairs).toBe(1);
    expect(noise.max_rel_diff).toBeCloseTo(1 / 3, 12);
    expect(noise.medians_ms).toEqual([12, 9]); // the medians of the whole pairs only
  });

  it('has no difference when no pair is whole, and is null without A/A processes', () => {
    const broken = [ran(FX, 'time', 0, [1]), ran(HOOKS, 'aa', 0, [10]), crashed(HOOKS, 'aa', 1, 'crashed')];
    expect(aggregate(info([FX], 1), broken).subjects.resnet18.meta!.aa_noise).toMatchObject({
      pairs: 0,
      max_rel_diff: null,
    });
    expect(aggregate(info([FX], 1), [ran(FX, 'time', 0, [1])]).subjects.resnet18.meta!.aa_noise).toBeNull();
  });
});

describe('the results around the cells', () => {
  it('describes the machine from the host facts it is given, and the harness by its wire version', () => {
    const results = aggregate(info([FX], 1), [ran(FX, 'time', 0, [1])]);
    expect(results.host).toMatchObject({
      cpus: 4,
      cpu_model: 'Test CPU',
      hostname: 'testhost',
      platform: 'Linux-6.1-x86_64',
    });
    expect(results.host.name).toBe(
      `a 4-core Test CPU linux machine, ${tiny.spec.protocol.threads} torch thread${tiny.spec.protocol.threads === 1 ? '' : 's'} per process`,
    );
    expect(results.subjects.resnet18.meta!.environment.load_average_1m).toBe(0.5);
    expect(results.harness).toContain(`runner wire version ${WIRE_VERSION}`);
    expect(results.versions).toEqual({ python: '3.11.7', torch: '2.5.1', torchvision: '0.20.1', numpy: '2.1.0' });
  });
});
