// The ingest rules on in-memory bundles: each names what is wrong and where.
import { describe, expect, it } from 'vitest';
import {
  coverage,
  environments,
  exportParameters,
  mergeProblems,
  type ReadBundle,
} from '../../../src/executors/bundle/checks.ts';
import type { BundleManifest } from '../../../src/executors/bundle/manifest.ts';
import type { ProcessRecord } from '../../../src/records/journal.ts';
import type { ProcessResult } from '../../../src/records/outcome.ts';

function bundle(
  dir: string,
  shard: number,
  keys: string[],
  ran: string[] = keys,
  over: Partial<BundleManifest> = {},
): ReadBundle {
  const manifest = {
    format: 1,
    protocol: 1,
    created: '',
    spec: { name: 's', title: 'S', digest: 'a'.repeat(64), device: 'cpu', file: 's.yaml' },
    device: 'cpu',
    only: null,
    overrides: {},
    shard: { index: shard, count: 2 },
    runners: ['torch'],
    environments: {},
    jobs: keys.map((key) => ({ key })),
    ...over,
  } as unknown as BundleManifest;
  return {
    dir,
    manifest,
    drivers: [],
    processes: ran.map((key) => ({ key }) as never),
    specDigest: manifest.spec.digest,
  };
}

function record(
  torch: string,
  library: { name: string; version: string } | null = null,
  gpu: string | null = null,
): ProcessRecord {
  const result = {
    versions: { python: '3.11', torch, torchvision: '0.2', numpy: '2', library },
    environment: { device: gpu ? 'cuda' : 'cpu', gpu_name: gpu, cuda: null },
  } as unknown as ProcessResult;
  return { outcome: { kind: 'result', result } } as ProcessRecord;
}

describe('ingest rules', () => {
  it('accepts two shards of one export that cover every process', () => {
    const bs = [bundle('/b1', 0, ['x#time#0']), bundle('/b2', 1, ['y#time#0'])];
    expect(mergeProblems(bs)).toEqual([]);
    expect(coverage(bs, ['x#time#0', 'y#time#0'])).toEqual({ problems: [], gaps: [], missing: [] });
  });

  it('names the shard that was not given and the processes that did not run', () => {
    const c = coverage(
      [bundle('/b1', 0, ['x#time#0', 'x#time#1'], ['x#time#0'])],
      ['x#time#0', 'x#time#1', 'y#time#0'],
    );
    expect(c.missing).toEqual(['x#time#1', 'y#time#0']);
    expect(c.gaps).toEqual([
      '1 process(es) are in no given bundle (shard(s) 2 of 2 not given): y#time#0',
      '1 process(es) have not run yet (run driver.py again to finish them): x#time#1',
    ]);
  });

  it('lists bundles of different exports with what differs', () => {
    const problems = exportParameters([bundle('/b1', 0, ['x']), bundle('/b2', 1, ['y'], ['y'], { only: 'A/**' })]);
    expect(problems[0]).toMatch(/different exports/);
    expect(problems[2]).toContain('"only":"A/**"');
    expect(problems[2]).toContain('/b2 (shard 2/2)');
  });

  it('flags a library measured at two versions', () => {
    const b1 = bundle('/b1', 0, ['x']);
    const b2 = bundle('/b2', 1, ['y']);
    const problems = environments([
      { bundle: b1, environment: 'main', record: record('2.1', { name: 'nnsight', version: '0.8.1' }) },
      { bundle: b2, environment: 'main', record: record('2.1', { name: 'nnsight', version: '0.9.0' }) },
    ]);
    expect(problems).toEqual([
      "nnsight (environment 'main') has 2 versions across the results: 0.8.1 in /b1 (shard 1/2); 0.9.0 in /b2 (shard 2/2)",
    ]);
  });

  it('accepts different stacks in different spec environments, and refuses them within one', () => {
    const b1 = bundle('/b1', 0, ['x']);
    const b2 = bundle('/b2', 1, ['y']);
    expect(
      environments([
        { bundle: b1, environment: 'main', record: record('2.1') },
        { bundle: b2, environment: 'old', record: record('1.13') },
      ]),
    ).toEqual([]);
    const problems = environments([
      { bundle: b1, environment: 'main', record: record('2.1') },
      { bundle: b2, environment: 'main', record: record('1.13') },
    ]);
    expect(problems[0]).toBe(
      "the results come from 2 different software stacks in environment 'main'; timings from different stacks cannot be merged:",
    );
    expect(problems[2]).toBe(
      "  environment 'main': python 3.11, torch 1.13, torchvision 0.2, numpy 2, cuda none: /b2 (shard 2/2) 1 process(es)",
    );
  });

  it('refuses results from two machine kinds, whatever the environment', () => {
    const problems = environments([
      { bundle: bundle('/b1', 0, ['x']), environment: 'main', record: record('2.1', null, 'NVIDIA H100') },
      { bundle: bundle('/b2', 1, ['y']), environment: 'other', record: record('2.1', null, 'NVIDIA A100') },
    ]);
    expect(problems).toEqual([
      'the results come from 2 different machines; timings from different machines cannot be merged:',
      '  device cuda, gpu NVIDIA H100, cpu unknown: /b1 (shard 1/2) 1 process(es)',
      '  device cuda, gpu NVIDIA A100, cpu unknown: /b2 (shard 2/2) 1 process(es)',
    ]);
  });
});
