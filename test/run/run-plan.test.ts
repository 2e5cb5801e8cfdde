// The run plan: selection by globs or by exact cell ids, the A/A cell, the files of a process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleFiles, bundlePythonPath, runFiles, runPlan, type Selection } from '../../src/run/run-plan.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES } from '../helpers.ts';

async function tiny(selection: Selection, aa_pairs = 1) {
  const loaded = await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
  const spec = { ...loaded.spec!, protocol: { ...loaded.spec!.protocol, aa_pairs } };
  return runPlan({
    spec,
    plan: loaded.plan!,
    manifests: loaded.manifests!,
    flags: { samples: 2, schedule: 'sequential', seed: 0 },
    seed: () => 0,
    selection,
  });
}

const aaCellsOf = (rp: Awaited<ReturnType<typeof tiny>>) => [
  ...new Set(rp.jobs.filter((j) => j.kind === 'aa').map((j) => j.cell.id)),
];

describe('the A/A cell', () => {
  it("is the group reference's first declared contract whatever --only selects", async () => {
    expect(aaCellsOf(await tiny({ only: null, cells: null }))).toEqual(['A/single_module_output/hooks/resnet18']);
    // --only leaves the reference's first contract out: it still measures the A/A noise
    const gradOnly = await tiny({ only: 'A/same_site_gradient/*/*', cells: null });
    expect(aaCellsOf(gradOnly)).toEqual(['A/single_module_output/hooks/resnet18']);
    expect(gradOnly.selected.has('A/single_module_output/hooks/resnet18')).toBe(false);
    expect(
      gradOnly.jobs.filter((j) => j.cell.id === 'A/single_module_output/hooks/resnet18').map((j) => j.kind),
    ).toEqual(['aa', 'aa']);
    // a group without a reference, or not selected at all, has none
    expect(aaCellsOf(await tiny({ only: 'B/**', cells: null }))).toEqual([]);
  });
});

describe('selection', () => {
  it('takes exact cell ids (--changed-since) as a set, not as globs', async () => {
    const ids = ['A/replacement_edit/hooks/resnet18', 'B/raw_forward/reference/resnet18'];
    const rp = await tiny({ only: null, cells: ids }, 0);
    expect([...rp.selected].sort()).toEqual([...ids].sort());
    expect(rp.cells).toBe(2);
    // both given: a cell passes both
    expect([...(await tiny({ only: 'A/**', cells: ids }, 0)).selected]).toEqual(['A/replacement_edit/hooks/resnet18']);
  });

  it('applies the overrides to the timing settings each request carries', async () => {
    const rp = await tiny({ only: 'A/single_module_output/raw/*', cells: null }, 0);
    expect(rp.protocol).toMatchObject({ samples: 2, min_samples: 2, processes: 2 });
    expect(rp.jobs.map((j) => j.key)).toEqual([
      'A/single_module_output/raw/resnet18#time#0',
      'A/single_module_output/raw/resnet18#time#1',
    ]);
  });
});

describe('process files', () => {
  it('lays out a run directory and a bundle the same way, by cell slug and process', async () => {
    const rp = await tiny({ only: 'A/single_module_output/tv_fx/*', cells: null }, 0);
    const job = rp.jobs[1];
    expect(runFiles('/r', job)).toEqual({
      request: '/r/processes/A+single_module_output+tv_fx+resnet18/time-1.request.json',
      result: '/r/processes/A+single_module_output+tv_fx+resnet18/time-1.result.json',
      stdout: '/r/processes/A+single_module_output+tv_fx+resnet18/time-1.stdout.log',
      stderr: '/r/processes/A+single_module_output+tv_fx+resnet18/time-1.stderr.log',
      scratch: '/r/processes/A+single_module_output+tv_fx+resnet18/time-1.tmp',
    });
    expect(bundleFiles(job).request).toBe('requests/A+single_module_output+tv_fx+resnet18/time-1.json');
    expect(bundlePythonPath(rp.spec, job.cell)).toEqual(['harness', 'runners/torch']);
  });
});
