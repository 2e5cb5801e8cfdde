// Which cells pair with raw, and why the others do not (src/plan/pairing.ts), and the jobs and requests
// that follow from it (src/run/jobs.ts): the spec decides, so validate, plan, run and bundles agree.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { beforeSamples, buildJobs, buildRequest, baselineDonors } from '../../src/run/jobs.ts';
import { pythonPathOf } from '../../src/run/run-plan.ts';
import { runSettings } from '../../src/settings/settings.ts';
import { formatDiagnostic } from '../../src/spec/diagnostics.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { validatorFor } from '../../src/spec/schema.ts';
import { FIXTURES, tmpdir, write } from '../helpers.ts';

const tiny = fs.readFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), 'utf8');

async function load(text: string) {
  const dir = tmpdir();
  const loaded = await loadSpec(write(dir, 'variant.yaml', text));
  return { loaded, lines: loaded.diagnostics.map((d) => formatDiagnostic(d, dir)) };
}

const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('pairing in the plan', () => {
  it('pairs every tool cell of a group that has raw, leaves raw itself out, and says why group B is unpaired', async () => {
    const { loaded } = await load(tiny);
    const cells = loaded.plan!.cells;
    const of = (id: string) => cells.find((c) => c.id === id)!.pairing;
    expect(of('A/single_module_output/hooks/resnet18')).toEqual({ baseline: 'raw', unpaired: null });
    expect(of('A/single_module_output/raw/resnet18')).toBeNull();
    expect(of('B/raw_forward/reference/resnet18')).toEqual({
      baseline: null,
      unpaired: 'group B has no raw tool to pair with',
    });
  });

  it('is off for every cell of a subject with `pairing: off`, with the reason the reports give', async () => {
    const { loaded, lines } = await load(
      tiny.replace('    sites: { layer2: layer2 }', '    sites: { layer2: layer2 }\n    pairing: off'),
    );
    expect(lines).toEqual([]);
    expect(loaded.plan!.cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')!.pairing).toEqual({
      baseline: null,
      unpaired: 'pairing is off for subject resnet18 (subjects.resnet18.pairing)',
    });
  });

  it("is off for the cells an `unpaired` rule names, with that rule's reason", async () => {
    const text = tiny.replace(
      '        reason: a feature extractor reads outputs',
      '        reason: a feature extractor reads outputs\n    unpaired:\n      - { tools: [tv_fx], reason: two copies of the model do not fit }',
    );
    const { loaded, lines } = await load(text);
    expect(lines).toEqual([]);
    const cells = loaded.plan!.cells;
    expect(cells.find((c) => c.id === 'A/single_module_output/tv_fx/resnet18')!.pairing).toEqual({
      baseline: null,
      unpaired: 'two copies of the model do not fit',
    });
    expect(cells.find((c) => c.id === 'A/single_module_output/hooks/resnet18')!.pairing!.baseline).toBe('raw');
  });
});

describe('pairing in the spec, hostile values', () => {
  it('refuses a pairing that is neither on nor off, at its line and column', async () => {
    const text = tiny.replace('    sites: { layer2: layer2 }', '    sites: { layer2: layer2 }\n    pairing: maybe');
    const { lines } = await load(text);
    expect(lines.join('\n')).toMatch(
      new RegExp(`variant\\.yaml:${lineOf(text, 'pairing: maybe')}:\\d+ .*subjects\\.resnet18\\.pairing.*(on|off)`),
    );
  });

  it('refuses an unpaired rule naming a tool the group lacks, and one without a reason', async () => {
    const unknown = tiny.replace(
      '        reason: a feature extractor reads outputs',
      '        reason: a feature extractor reads outputs\n    unpaired:\n      - { tools: [nnsight], reason: too big }',
    );
    expect((await load(unknown)).lines.join('\n')).toMatch(
      /groups\.A\.unpaired\[0\]\.tools\[0\]: unknown tool 'nnsight': this unpaired rule names it, but the spec does not declare it/,
    );
    const empty = tiny.replace(
      '        reason: a feature extractor reads outputs',
      '        reason: a feature extractor reads outputs\n    unpaired:\n      - { tools: [tv_fx], reason: "" }',
    );
    expect((await load(empty)).lines.join('\n')).toMatch(/groups\.A\.unpaired\[0\]\.reason/);
  });

  it('refuses an unpaired rule that names only the raw tool: its cells are never paired', async () => {
    const text = tiny.replace(
      '        reason: a feature extractor reads outputs',
      '        reason: a feature extractor reads outputs\n    unpaired:\n      - { tools: [raw], reason: no }',
    );
    expect((await load(text)).lines.join('\n')).toMatch(/this unpaired rule names no tool cell of the group/);
  });
});

describe('the jobs and requests of a paired run', () => {
  it('runs no timing process for a raw cell its row pairs with, and still its control and memory processes', async () => {
    const { loaded } = await load(tiny);
    const protocol = { ...runSettings(loaded.spec!, {}, () => 0).protocol, memory_runs: 1 };
    const selected = new Set(loaded.plan!.cells.map((c) => c.id));
    const jobs = buildJobs(loaded.plan!, protocol, selected, []);
    const raw = jobs.filter((j) => j.cell.id === 'A/single_module_output/raw/resnet18');
    // The row's control: as many processes as a cell's, each the baseline timed as a paired tool's process times it.
    expect(raw.map((j) => j.kind)).toEqual([...Array(protocol.processes).fill('control'), 'memory']);
    expect(baselineDonors(loaded.plan!, selected).get('A/single_module_output/raw/resnet18')).toEqual([
      'A/single_module_output/hooks/resnet18',
      'A/single_module_output/tv_fx/resnet18',
    ]);
    // Selected alone, the raw cell times itself.
    const alone = buildJobs(loaded.plan!, protocol, new Set(['A/single_module_output/raw/resnet18']), []);
    expect(alone.filter((j) => j.kind === 'time')).toHaveLength(protocol.processes);
  });

  it("writes the baseline, a per-process seed and the block's size into a paired request, which the schema accepts", async () => {
    const { loaded } = await load(tiny);
    const spec = loaded.spec!;
    const { protocol } = runSettings(spec, {}, () => 0);
    const cell = loaded.plan!.cells.find((c) => c.id === 'A/single_module_output/tv_fx/resnet18')!;
    const request = (index: number, kind: 'time' | 'memory', seed: number) =>
      buildRequest(
        { spec, manifests: loaded.manifests!, ...runSettings(spec, {}, () => seed) },
        { key: `${cell.id}#${kind}#${index}`, cell, kind, index },
      );
    const r0 = request(0, 'time', 1) as {
      pairing: { baseline: { tool: string; module: string }; seed: number; before: number };
    };
    expect(r0.pairing).toMatchObject({
      baseline: { tool: 'raw', module: 'benchgrid_torch.adapters.raw' },
      before: beforeSamples(protocol),
    });
    expect(validatorFor('request.schema.json')(r0)).toBe(true);
    // The seed follows the run's seed and the process: the same run rebuilt pairs the same way.
    expect((request(0, 'time', 1) as typeof r0).pairing.seed).toBe(r0.pairing.seed);
    expect((request(1, 'time', 1) as typeof r0).pairing.seed).not.toBe(r0.pairing.seed);
    expect((request(0, 'time', 2) as typeof r0).pairing.seed).not.toBe(r0.pairing.seed);
    expect((request(0, 'memory', 1) as { pairing: unknown }).pairing).toBeNull();
    expect(validatorFor('request.schema.json')({ ...r0, pairing: { ...r0.pairing, seed: -1 } })).toBe(false);
    // The baseline's runner is on the process's PYTHONPATH.
    expect(pythonPathOf(spec, cell).some((p) => p.endsWith(path.join('runners', 'torch')))).toBe(true);
  });
});
