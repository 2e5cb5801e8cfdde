// aggregate() of paired processes without torch: hand-made records of the tiny spec's plan, where hooks and
// tv_fx pair with raw (docs/protocol.md, Pairing): their paired figures, the raw cell timed by their blocks
// before the import, the reasons of unpaired cells, and the paired A/A figure.
import { describe, expect, it } from 'vitest';
import { aggregate, type RunInfo } from '../../src/results/aggregate.ts';
import type { ProcessRecord } from '../../src/records/journal.ts';
import type { ProcessResult } from '../../src/records/outcome.ts';
import type { PairedRecord } from '../../src/results/paired.ts';
import { okResult, processRecord, type Started, timed } from './process-records.ts';
import { loadTiny, tinyRun } from './tiny-run.ts';

const RAW = 'A/single_module_output/raw/resnet18';
const HOOKS = 'A/single_module_output/hooks/resnet18';
const FX = 'A/single_module_output/tv_fx/resnet18';
const REF = 'B/raw_forward/reference/resnet18';

const tiny = await loadTiny();

const AT: Started = { started: '2026-12-01T10:00:00.000Z', wall_s: 2, start: 'fork' };
const HOST = { cpus: 2, cpuModel: 'Test CPU', hostname: 'h', platform: 'linux', release: '6.1', loadAverage1m: 1 };
const info = (cells: string[]): RunInfo =>
  tinyRun(tiny, cells, 2, { run: { start: 'fork' }, measuredOn: '2026-12-01', host: HOST });

/** A paired process: the tool's samples, the baseline's beside them, and the baseline's block before the import. */
function paired(
  cell: string,
  index: number,
  tool: number[],
  baseline: number[],
  before: number[],
  kind: ProcessRecord['kind'] = 'time',
): ProcessRecord {
  const p: PairedRecord = {
    baseline: 'raw',
    seed: 100 + index,
    unpaired: null,
    baseline_ms: baseline,
    baseline_gc_ms: baseline.map(() => 0.01),
    tool_first: baseline.map((_, j) => j % 2 === 0),
    before: { baseline_ms: before, baseline_gc_ms: before.map(() => 0.01), stopped_by: 'samples' },
  };
  return record(
    cell,
    index,
    {
      timing: { ...timed(tool), gc: 'collect-between-samples', gc_ms: tool.map(() => 0.01) },
      paired: p,
    },
    kind,
  );
}

function record(
  cell: string,
  index: number,
  extra: Partial<ProcessResult>,
  kind: ProcessRecord['kind'] = 'time',
): ProcessRecord {
  const result = okResult(cell, index, {
    versions: { python: '3.11.7', torch: '2.14.1', torchvision: '0.29.1', numpy: null, library: null },
    environment: { executable: '/env/bin/python' },
    phases_s: { before: 0.5 },
    ...extra,
  });
  return processRecord(cell, kind, index, { kind: 'result', result }, AT);
}

describe('a paired run, aggregated', () => {
  const records = () => [
    paired(HOOKS, 0, [11, 11, 11], [10, 10, 10], [9, 9.5]),
    paired(HOOKS, 1, [22, 22.2, 22], [20, 20, 20], [20, 20]),
    paired(FX, 0, [13, 13, 13], [10, 10, 10], [10, 10.5]),
    paired(FX, 1, [26, 26, 26.1], [20, 20, 20], [19, 19]),
  ];

  it("gives each paired cell its paired ratio, pairs and import tax, and keeps both sides' samples", () => {
    const cells = aggregate(info([HOOKS, FX]), records()).cells;
    const hooks = cells.find((c) => c.id === HOOKS)!;
    // Each process's pairs are 1.1 apart whatever the process's own speed (10 ms in one, 20 in the other).
    expect(hooks.paired!.ratio).toBeCloseTo(1.1, 2);
    expect(hooks.paired!.pairs).toBe(6);
    expect(hooks.paired!.processes.map((p) => p.baseline_ms)).toEqual([
      [10, 10, 10],
      [20, 20, 20],
    ]);
    expect(hooks.samples_ms).toEqual([
      [11, 11, 11],
      [22, 22.2, 22],
    ]);
    // Tax per process: 10 / median(9, 9.5) and 20 / 20; the cell's is their geometric mean.
    expect(hooks.import_tax!.ratio).toBeCloseTo(Math.sqrt((10 / 9.25) * 1), 6);
    expect(cells.find((c) => c.id === FX)!.paired!.ratio).toBeCloseTo(1.3, 2);
  });

  it("times the raw cell with its row's blocks before the import, one process per donor process", () => {
    const raw = aggregate(info([RAW, HOOKS, FX]), records()).cells.find((c) => c.id === RAW)!;
    expect(raw.status).toBe('ok');
    expect(raw.baseline_from).toEqual([HOOKS, FX]);
    expect(raw.processes).toBe(4);
    expect(raw.samples_ms).toEqual([
      [9, 9.5],
      [20, 20],
      [10, 10.5],
      [19, 19],
    ]);
    expect(raw.per_process!.map((p) => p.from)).toEqual([HOOKS, HOOKS, FX, FX]);
    expect(raw.paired ?? null).toBeNull();
    expect(raw.unpaired ?? null).toBeNull();
  });

  it('says why a cell is unpaired: no raw in its group, or processes that could not pair', () => {
    const broken = record(FX, 0, {
      timing: { timer: 'perf_counter_ns', sync: 'none', warmups: 1, samples_ms: [5], stopped_by: 'samples' },
      paired: {
        baseline: 'raw',
        seed: 1,
        unpaired: 'the model built twice from seed 0 is not the same: fc.weight differs between the two copies',
      },
    });
    const cells = aggregate(info([FX, REF]), [
      broken,
      record(REF, 0, {
        timing: { timer: 'perf_counter_ns', sync: 'none', warmups: 1, samples_ms: [5], stopped_by: 'samples' },
      }),
    ]).cells;
    expect(cells.find((c) => c.id === FX)).toMatchObject({
      status: 'ok',
      paired: null,
      unpaired: 'the model built twice from seed 0 is not the same: fc.weight differs between the two copies',
    });
    expect(cells.find((c) => c.id === REF)).toMatchObject({
      status: 'ok',
      paired: null,
      unpaired: 'group B has no raw tool to pair with',
    });
  });

  it("makes the raw cell an error, saying why, when none of its row's processes timed the baseline", () => {
    const failed: ProcessRecord = {
      ...record(HOOKS, 0, {}),
      outcome: {
        kind: 'failed',
        status: 'error',
        reason: 'the process was killed by SIGKILL before writing a result',
        tail: '',
      },
    };
    const raw = aggregate(info([RAW, HOOKS]), [failed]).cells.find((c) => c.id === RAW)!;
    expect(raw.status).toBe('error');
    expect(raw.reason).toMatch(
      /none of the paired processes of its row timed the baseline \(1 in its row; first: A\/single_module_output\/hooks\/resnet18: the process was killed/,
    );
  });

  it('gives the A/A figure of paired ratios next to the unpaired one', () => {
    const aa = [
      paired(HOOKS, 0, [11, 11], [10, 10], [10, 10], 'aa'),
      paired(HOOKS, 1, [23.1, 23.1], [20, 20], [20, 20], 'aa'),
    ];
    const noise = aggregate(info([HOOKS]), [...records().slice(0, 2), ...aa]).subjects.resnet18.meta!.aa_noise!;
    // Medians 11 and 23.1 differ by 110%; the paired ratios 1.1 and 1.155 by 5%.
    expect(noise.max_rel_diff).toBeCloseTo(1.1, 6);
    expect(noise.paired).toEqual({
      pairs: 1,
      ratios: [expect.closeTo(1.1, 6), expect.closeTo(1.155, 6)],
      max_rel_diff: expect.closeTo(0.05, 6),
    });
  });
});
