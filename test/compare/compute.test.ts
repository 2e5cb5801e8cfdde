import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/compare/compute.ts';
import { loadResults } from '../../src/results/load.ts';
import { toJson } from '../../src/results/write.ts';
import { stableStringify } from '../../src/util/json.ts';
import { ROOT, PREDECESSOR_RESULTS } from '../helpers.ts';
import { CPU_RUN_FIXTURE, cpuRun } from './fixtures.ts';

const FILES = { before: 'before.json', after: 'after.json' };

describe('compareResults', () => {
  it('gives the seed compared with itself no faster or slower label, by the range rule', () => {
    const predecessor = loadResults(PREDECESSOR_RESULTS);
    const c = compareResults(predecessor, predecessor, FILES);
    expect(c.summary).toMatchObject({
      cells: 83,
      faster: 0,
      slower: 0,
      within_noise: 48,
      unavailable: 35,
      range_rule: 48,
      status_changes: 0,
      exactness_changes: 0,
    });
    expect(c.environment).toEqual({ differences: [], blocking: 0 });
    // The seed's A/A noise (5.03% over 2 pairs) raises the 2% threshold.
    // The same file twice: the run shift of its A/A reference cell is nil, so the absolute threshold is not widened.
    expect(c.noise).toEqual([
      {
        subject: 'resnet18',
        threshold: 0.05026445336169773,
        option: 0.02,
        aa_before: { max_rel_diff: 0.05026445336169773, pairs: 2 },
        aa_after: { max_rel_diff: 0.05026445336169773, pairs: 2 },
        run_shift: { cell: 'A/single_module_output/raw/resnet18', ratio: 1 },
        absolute_threshold: 0.05026445336169773,
      },
    ]);
  });

  it('gives a run with raw samples compared with itself no faster or slower label, by the bootstrap rule', () => {
    const run = cpuRun();
    const c = compareResults(run, run, FILES);
    expect(c.summary.faster + c.summary.slower).toBe(0);
    const measured = c.cells.filter((x) => x.before?.status === 'ok');
    expect(measured).toHaveLength(6);
    for (const x of measured) {
      expect(x.speed.basis).toBe('bootstrap');
      expect(x.speed.interval!.low).toBeLessThan(1);
      expect(x.speed.interval!.high).toBeGreaterThan(1);
    }
  });

  it('lists status, reason and exactness changes, withholds the label of a worse cell, and matches cells by id', () => {
    const c = compareResults(loadResults(PREDECESSOR_RESULTS), cpuRun(), FILES);
    const byId = new Map(c.cells.map((x) => [x.id, x]));
    expect(c.cells.filter((x) => x.status_changed).map((x) => x.id)).toEqual([
      'A/single_module_output/tl_extract_dataset/resnet18',
      'A/single_module_output/thingsvision/resnet18',
    ]);
    const nnsight = byId.get('A/single_module_output/nnsight/resnet18')!;
    expect(nnsight.exactness).toEqual({ before: 'bit', after: 'close', worse: true });
    expect(nnsight.speed).toMatchObject({
      label: 'unavailable',
      ratio: null,
      interval: null,
      why: 'withheld: exactness got worse (bit -> close)',
    });
    expect(byId.get('A/single_module_output/thingsvision/resnet18')!.speed.why).toBe(
      'not measured: unsupported before, error after',
    );
    expect(c.summary).toMatchObject({ only_before: 76, only_after: 1, exactness_worse: 1 });
    expect(byId.get('A/single_module_output/raw/resnet18')!.speed).toMatchObject({ label: 'slower', basis: 'range' });
  });

  it('does not count a better or a first exactness verdict as worse', () => {
    const before = cpuRun();
    const after = cpuRun();
    after.cells = after.cells.map((x) =>
      x.tool === 'nnsight'
        ? { ...x, exact: 'bit' as const }
        : x.tool === 'raw'
          ? { ...x, exact: 'mismatch' as const }
          : x,
    );
    const c = compareResults(before, after, FILES);
    const ex = Object.fromEntries(c.cells.filter((x) => x.exactness).map((x) => [x.tool, x.exactness]));
    expect(ex).toEqual({
      raw: { before: null, after: 'mismatch', worse: false },
      nnsight: { before: 'close', after: 'bit', worse: false },
    });
  });

  it('labels a tool slowed by 30% slower, by its ratio to raw, and gates it with fail_on_slower', () => {
    const before = cpuRun({ seed: 1 });
    const after = cpuRun({ seed: 2, toolScale: { hooks: 1.3, tv_fx: 1.3 } });
    const gated = compareResults(before, after, FILES, { fail_on_slower: 0.05 });
    const slower = gated.cells.filter((x) => x.speed.label === 'slower');
    expect(slower.map((x) => x.tool)).toEqual(['hooks', 'tv_fx']);
    expect(
      slower.every(
        (x) => x.speed.decided_by === 'ratio' && x.speed.other?.mode === 'absolute' && x.speed.other.label === 'slower',
      ),
    ).toBe(true);
    expect(gated.summary.failing).toHaveLength(2);
    expect(compareResults(before, after, FILES, { fail_on_slower: 0.5 }).summary.failing).toEqual([]);
    expect(compareResults(before, after, FILES).summary.failing).toBeNull();
  });

  it('labels nothing when the whole run is 30% slower (the machine, not the tools), in either mode', () => {
    const before = cpuRun({ seed: 1 });
    const after = cpuRun({ seed: 2, scale: 1.3 });
    const c = compareResults(before, after, FILES);
    expect(c.summary.faster + c.summary.slower).toBe(0);
    expect(c.noise[0].run_shift!.ratio).toBeGreaterThan(1.2);
    const abs = compareResults(before, after, FILES, { mode: 'absolute' });
    expect(abs.summary.faster + abs.summary.slower).toBe(0);
    expect(
      abs.cells.filter((x) => x.speed.label === 'within_noise').every((x) => x.speed.decided_by === 'absolute'),
    ).toBe(true);
  });

  it('uses the larger of the threshold option and the A/A noise', () => {
    const after = cpuRun({ seed: 2 });
    after.subjects.resnet18.meta!.aa_noise = { pairs: 3, medians_ms: [], max_rel_diff: 0.08, cell: null };
    const c = compareResults(cpuRun(), after, FILES, { threshold: 0.03 });
    expect(c.noise[0]).toMatchObject({
      threshold: 0.08,
      option: 0.03,
      aa_before: { max_rel_diff: 0.01, pairs: 2 },
      aa_after: { max_rel_diff: 0.08, pairs: 3 },
    });
    // The ratio rule uses the noise threshold; the absolute rule (here: the raw cell, its own baseline)
    // the threshold widened by the run shift.
    const measured = c.cells.filter((x) => x.speed.label !== 'unavailable');
    expect(
      measured
        .filter((x) => x.tool !== 'raw')
        .every((x) => x.speed.decided_by === 'ratio' && x.speed.threshold === 0.08),
    ).toBe(true);
    expect(c.cells.find((x) => x.tool === 'raw')!.speed).toMatchObject({
      decided_by: 'absolute',
      threshold: c.noise[0].absolute_threshold,
    });
  });

  it('is deterministic: the same files give the same comparison', () => {
    const a = () => compareResults(cpuRun({ seed: 3 }), cpuRun({ seed: 4, scale: 1.05 }), FILES);
    expect(JSON.stringify(a())).toBe(JSON.stringify(a()));
  });

  it('puts the environment first in the JSON model', () => {
    expect(Object.keys(compareResults(cpuRun(), cpuRun(), FILES)).slice(0, 3)).toEqual([
      'format',
      'version',
      'environment',
    ]);
  });
});

describe('the committed CPU run fixture', () => {
  it('is what test/compare/fixtures.ts builds (regenerate it with cpuRun() if this fails)', () => {
    const committed = fs.readFileSync(path.join(ROOT, CPU_RUN_FIXTURE), 'utf8');
    expect(committed).toBe(stableStringify(toJson(cpuRun())));
  });
});
