import { describe, expect, it } from 'vitest';
import { environmentDifferences } from '../../src/compare/env-guard.ts';
import { loadResults } from '../../src/results/load.ts';
import { PREDECESSOR_RESULTS } from '../helpers.ts';
import { cpuRun } from './fixtures.ts';

describe('environmentDifferences', () => {
  it('finds nothing between a file and itself', () => {
    const predecessor = loadResults(PREDECESSOR_RESULTS);
    expect(environmentDifferences(predecessor, predecessor)).toEqual([]);
  });

  it('names the device, GPU and versions between the seed (cuda) and a CPU run, blocking first', () => {
    const d = environmentDifferences(loadResults(PREDECESSOR_RESULTS), cpuRun());
    const byKey = new Map(d.map((x) => [x.key, x]));
    expect(byKey.get('device')).toMatchObject({
      before: 'cuda',
      after: 'cpu',
      blocking: true,
      recorded: 'both',
      subjects: null,
    });
    expect(byKey.get('gpu')).toMatchObject({ before: 'NVIDIA GeForce RTX 2080 Ti', after: null, blocking: true });
    expect(byKey.get('python')).toMatchObject({ before: '3.10.19', after: '3.12.3', blocking: true });
    expect(byKey.get('versions.torch')).toMatchObject({ before: '2.13.0+cu126', after: '2.5.1+cpu', blocking: true });
    expect(d[0].key).toBe('device');
    expect(d.findIndex((x) => !x.blocking)).toBeGreaterThan(d.findLastIndex((x) => x.blocking));
  });

  it('lists a fact recorded on one side only as a note, never blocking', () => {
    const d = environmentDifferences(loadResults(PREDECESSOR_RESULTS), cpuRun());
    expect(d.find((x) => x.key === 'cpu')).toMatchObject({
      before: null,
      after: 'AMD EPYC 7763 64-Core Processor',
      recorded: 'after',
      blocking: false,
    });
    expect(d.find((x) => x.key === 'load_average_1m')).toMatchObject({ recorded: 'before', blocking: false });
  });

  it('blocks on a thread count difference and only notes a hostname difference', () => {
    const d = environmentDifferences(cpuRun(), cpuRun({ environment: { torch_num_threads: 4, hostname: 'other' } }));
    expect(d).toEqual([
      { key: 'torch_threads', before: '1', after: '4', subjects: null, blocking: true, recorded: 'both' },
      { key: 'hostname', before: 'ci-runner', after: 'other', subjects: null, blocking: false, recorded: 'both' },
    ]);
  });

  it('blocks on a protocol difference and a tool version difference', () => {
    const before = cpuRun();
    const after = cpuRun();
    after.subjects.resnet18.meta!.protocol = { ...after.subjects.resnet18.meta!.protocol, samples: 50 };
    after.cells = after.cells.map((c) => (c.tool === 'nnsight' ? { ...c, tool_version: '0.9.0' } : c));
    const keys = environmentDifferences(before, after)
      .filter((x) => x.blocking)
      .map((x) => `${x.key}: ${x.before} -> ${x.after}`);
    expect(keys).toEqual(['protocol.samples: 20 -> 50', 'tool.nnsight: 0.8.1 -> 0.9.0']);
  });

  it('blocks on a tool that ran with another torch in its own environment', () => {
    const runtime = (torch: string) => ({ environment: 'nnsight', python: '3.12.3', torch, torchvision: null });
    const before = cpuRun();
    const after = cpuRun();
    before.cells = before.cells.map((c) => (c.tool === 'nnsight' ? { ...c, runtime: runtime('2.5.1') } : c));
    after.cells = after.cells.map((c) => (c.tool === 'nnsight' ? { ...c, runtime: runtime('2.6.0') } : c));
    expect(environmentDifferences(before, after)).toEqual([
      {
        key: 'runtime.nnsight',
        before: 'python 3.12.3, torch 2.5.1',
        after: 'python 3.12.3, torch 2.6.0',
        subjects: null,
        blocking: true,
        recorded: 'both',
      },
    ]);
  });

  it('names the subjects when a difference holds for some of them only', () => {
    const before = cpuRun();
    const after = cpuRun();
    const other = { ...before.cells[0], id: 'A/single_module_output/raw/bert', subject: 'bert' };
    for (const r of [before, after]) {
      r.cells = [...r.cells, other];
      r.subjects.bert = { meta: structuredClone(r.subjects.resnet18.meta), not_measured: [] };
    }
    after.subjects.bert.meta!.environment.device = 'cuda';
    expect(environmentDifferences(before, after)).toEqual([
      { key: 'device', before: 'cpu', after: 'cuda', subjects: ['bert'], blocking: true, recorded: 'both' },
    ]);
  });
});
