// Memory kept per call (src/results/memory-growth.ts): when a process keeps memory, when a cell is marked,
// and the mark in every report format.
import { describe, expect, it } from 'vitest';
import { cellGrowth, growthText, judge, keeps, parseGrowth, withMarks } from '../../src/results/memory-growth.ts';
import { fromJson } from '../../src/results/load.ts';
import { toJson } from '../../src/results/write.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTable } from '../../src/report/table.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import type { MemoryGrowthRecord } from '../../src/records/record.ts';
import { measuredCell, resultsOf } from '../compare/simulate.ts';

const KIB = 1024;
const MIB = 1024 * KIB;
const AT = { file: 'results.json', path: 'sim.groups["A/x/t/sim"].memory_growth' };
/** What a ResNet-18 process's resident set reads after its warm-ups. */
const RSS = 500 * MIB;

/** A cell's growth from per-process RSS figures per call (every process at RSS before), CUDA's optional. */
function growth(calls: number[], rss: (number | null)[], cuda: (number | null)[] = calls.map(() => null)) {
  return withMarks({
    calls,
    rss_per_call_bytes: rss,
    cuda_per_call_bytes: cuda,
    rss_before_bytes: rss.map((v) => (v === null ? null : RSS)),
    cuda_before_bytes: cuda.map((v) => (v === null ? null : 10 * MIB)),
  });
}

/** One counter's figures, every process at RSS before. */
const rssOf = (perCall: (number | null)[]) => ({ perCall, before: perCall.map(() => RSS) });

/** A timing record's growth: `perCall` bytes of RSS per call over `calls` calls. */
function record(perCall: number | null, calls = 20, cuda: number | null = null): MemoryGrowthRecord {
  return {
    calls,
    rss_bytes: perCall === null ? null : [RSS, RSS + perCall * calls],
    cuda_allocated_bytes: cuda === null ? null : [0, cuda * calls],
    held_bytes: { rss: 8192, cuda: cuda === null ? null : 0 },
    per_call_bytes: { rss: perCall, cuda },
  };
}

describe('a process that keeps memory', () => {
  it('keeps at least 64 KiB per call, and over its calls 4 MiB and 1% of what it read before', () => {
    expect(keeps(MIB, 20, RSS)).toBe(true);
    expect(keeps(64 * KIB, 80, RSS)).toBe(true);
    expect(keeps(63 * KIB, 1000, RSS)).toBe(false);
    expect(keeps(64 * KIB, 64, 0)).toBe(true);
    // A 7 GiB process: 20 MiB in all is within what its allocator shifts.
    expect(keeps(MIB, 20, 7 * 1024 * MIB)).toBe(false);
    expect(keeps(MIB, 80, 7 * 1024 * MIB)).toBe(true);
  });

  it('is not one whose allocator shifted once: a mebibyte over 20 calls, or over 3', () => {
    // What a process of the `last` fixture showed: its resident set 1 MiB larger after 20 calls.
    expect(keeps(MIB / 20, 20, RSS)).toBe(false);
    // Few samples inflate a one-off shift per call; the total stays what it was (nnsight: 3 MiB over 10 calls).
    expect(keeps(MIB / 3, 3, RSS)).toBe(false);
    expect(keeps(272 * KIB, 10, RSS)).toBe(false);
  });

  it('gives memory back as negative growth, which keeps nothing', () => {
    expect(keeps(-MIB, 20, RSS)).toBe(false);
  });
});

describe('a cell whose memory grows', () => {
  it('is marked when two thirds of its processes keep memory, with their median per call', () => {
    expect(judge('rss', [20, 20, 20], rssOf([MIB, 1.1 * MIB, 0]))).toEqual({
      counter: 'rss',
      per_call_bytes: MIB,
      processes: 2,
      of: 3,
    });
    expect(judge('rss', [20, 20, 20], rssOf([MIB, 0, 0]))).toBeNull();
    expect(judge('rss', [20], rssOf([MIB]))).toEqual({ counter: 'rss', per_call_bytes: MIB, processes: 1, of: 1 });
    expect(judge('rss', [20, 20], rssOf([MIB, 0]))).toBeNull();
    const nine = Array.from({ length: 9 }, (_, i) => (i < 6 ? MIB : 0));
    expect(
      judge(
        'rss',
        nine.map(() => 20),
        rssOf(nine),
      )?.processes,
    ).toBe(6);
  });

  it('judges only processes that read the counter', () => {
    expect(judge('cuda', [20, 20], { perCall: [null, null], before: [null, null] })).toBeNull();
    expect(judge('rss', [20, 20, 20], rssOf([MIB, MIB, null]))?.of).toBe(2);
  });

  it('comes from the timing records, leaving out processes without warm-ups and cells without records', () => {
    const g = cellGrowth([
      { warmups: 3, memory_growth: record(MIB) },
      { warmups: 0, memory_growth: record(5 * MIB) },
      { warmups: 3, memory_growth: record(MIB) },
    ]);
    expect(g).toEqual({
      calls: [20, 20, 20],
      rss_per_call_bytes: [MIB, null, MIB],
      cuda_per_call_bytes: [null, null, null],
      rss_before_bytes: [RSS, RSS, RSS],
      cuda_before_bytes: [null, null, null],
      grows: [{ counter: 'rss', per_call_bytes: MIB, processes: 2, of: 2 }],
    });
    expect(cellGrowth([{ warmups: 3 }, { warmups: 3 }])).toBeNull();
  });

  it('says how much per call, and which memory on CUDA', () => {
    expect(growthText(growth([20, 20, 20], [1.02 * MIB, MIB, 1.01 * MIB]))).toBe('memory: grows 1034 KiB per call');
    expect(growthText(growth([20, 20], [0, 0], [2 * MIB, 2 * MIB]))).toBe('memory: grows 2048 KiB per call on the GPU');
    expect(growthText(growth([20, 20], [MIB, MIB], [MIB, MIB]))).toBe(
      'memory: grows 1024 KiB per call on the GPU, 1024 KiB per call',
    );
    expect(growthText(growth([20, 20], [0, 0]))).toBeNull();
    expect(growthText(null)).toBeNull();
  });
});

describe('growth in a results file', () => {
  it('is judged afresh when read, whatever the file says of its marks', () => {
    const edited = {
      calls: [20, 20],
      rss_per_call_bytes: [MIB, MIB],
      cuda_per_call_bytes: [null, null],
      rss_before_bytes: [RSS, RSS],
      cuda_before_bytes: [null, null],
      grows: [],
    };
    expect(parseGrowth(edited, AT)?.grows).toEqual([{ counter: 'rss', per_call_bytes: MIB, processes: 2, of: 2 }]);
    expect(parseGrowth(null, AT)).toBeNull();
  });

  it('refuses figures that are not one per process, or not byte counts', () => {
    const one = {
      calls: [20],
      rss_per_call_bytes: [0],
      cuda_per_call_bytes: [null],
      rss_before_bytes: [RSS],
      cuda_before_bytes: [null],
    };
    expect(parseGrowth(one, AT)?.grows).toEqual([]);
    expect(() => parseGrowth({ ...one, calls: [20, 20] }, AT)).toThrow(
      /rss_per_call_bytes: expected one figure per process/,
    );
    expect(() => parseGrowth({ ...one, rss_per_call_bytes: ['lots'] }, AT)).toThrow(
      /rss_per_call_bytes\[0\]: expected bytes from -1e15/,
    );
    expect(() => parseGrowth({ ...one, rss_per_call_bytes: [1e300] }, AT)).toThrow(/bytes from -1e15 to 1e15/);
    expect(() => parseGrowth({ ...one, rss_before_bytes: [-1] }, AT)).toThrow(
      /rss_before_bytes\[0\]: expected bytes from 0/,
    );
    expect(() => parseGrowth({ ...one, calls: [-1] }, AT)).toThrow(/calls\[0\]: expected a whole number/);
  });
});

describe('the mark in every report', () => {
  const grows = growth([20, 20, 20], [MIB, MIB, MIB]);
  const steady = growth([20, 20, 20], [0, 50 * KIB, -400]);
  const results = resultsOf([
    measuredCell('A/single_module_output/hooks/sim', [[10, 10, 10]], { memory_growth: steady }),
    measuredCell('A/single_module_output/mebibyte/sim', [[11, 11, 11]], { memory_growth: grows }),
  ]);
  const input = reportInput(results, null);

  it('keys it under the terminal grid', () => {
    const text = renderTable(input, false);
    expect(text).toMatch(/11\.00 ms \((\w)\)[\s\S]*\(\1\) memory: grows 1024 KiB per call/);
    expect(text.match(/memory: grows/g)).toHaveLength(1);
  });

  it('follows the figure on the markdown page and in the HTML report', () => {
    expect(renderMarkdown(input)).toMatch(/\| mebibyte \| 11\.00 ms[^|]*; memory: grows 1024 KiB per call \|/);
    expect(renderMarkdown(input).match(/memory: grows/g)).toHaveLength(1);
    expect(renderHtml(input)).toContain('memory: grows 1024 KiB per call');
  });

  it('is in the JSON a results file and `report --format json` hold, and survives a round trip', () => {
    const again = fromJson(JSON.parse(JSON.stringify(toJson(results))));
    const cell = JSON.parse(JSON.stringify(again)).cells.find((c: { tool: string }) => c.tool === 'mebibyte');
    expect(cell.memory_growth.grows).toEqual([{ counter: 'rss', per_call_bytes: MIB, processes: 3, of: 3 }]);
    expect(again.cells.find((c) => c.tool === 'hooks')!.memory_growth!.grows).toEqual([]);
  });
});
