// Sources applied to a loaded spec: which tools a name stands for, the layers they run in, bench-change's
// two sides, and what a spec itself can never do: name a source.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeCells, isToolCell, sideOf, splitSides, unsided } from '../../src/change/sides.ts';
import { planSpec } from '../../src/plan/expand.ts';
import type { CellResult, Results } from '../../src/results/model.ts';
import { run } from '../../src/commands/run.ts';
import { sourceEnvironmentId, toolsNamed, withSides, withToolSources } from '../../src/source/apply.ts';
import { prepareSources } from '../../src/source/prepare.ts';
import type { ResolvedSource } from '../../src/spec/types.ts';
import { builtVersion } from '../../src/env/source.ts';
import { blank } from '../../src/results/cell-result.ts';
import { contentTree } from '../../src/source/resolve.ts';
import { adapterLookup } from '../../src/spec/manifests.ts';
import { loadValidSpec, type ValidSpec } from '../../src/validate/valid.ts';
import { FIXTURES, tmpdir, write } from '../helpers.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { HOOKKIT } from './tool-repo.ts';

const SPEC = `benchgrid: 1
name: sources
title: sources
device: cpu
environments:
  main: { requirements: [torch==2.14.1, torchlens==2.36.1] }
runners: { sourced: runner }
subjects:
  s: { label: s, model: { builder: torchvision, name: resnet18, seed: 0 }, inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }, sites: { l: layer2 } }
contracts:
  single_module_output: { site: l }
  replacement_edit: { site: l }
tools:
  raw: { label: raw }
  hooks: { label: hooks }
  hookkit: { label: hookkit, runner: sourced }
  tl_record: { label: tl.record }
  tl_bind: { label: tl.bind }
  demo: { label: "demo {version}", adapter: hooks, package: demo-tool, versions: ["1.0", "2.0"] }
groups:
  A:
    reference: hooks
    subjects: [s]
    contracts: [single_module_output, replacement_edit]
    tools: [raw, hooks, hookkit, tl_record, tl_bind, demo]
    unsupported: [{ tools: [tl_bind], contracts: [single_module_output], reason: a bound edit records nothing }]
`;

// A source known by its content alone, its digest the letter repeated.
const source = (digest: string): ResolvedSource => contentTree(`/src/${digest}`, [], digest.repeat(64).slice(0, 64));

let dir: string;
let loaded: ValidSpec;

beforeAll(async () => {
  dir = tmpdir();
  fs.cpSync(path.join(FIXTURES, 'runners/sourced'), path.join(dir, 'runner'), { recursive: true });
  loaded = await loadValidSpec(write(dir, 'sources.yaml', SPEC));
});

describe('applying sources to a spec', () => {
  it('reads a package as every tool that uses it, and a tool id as that tool', () => {
    expect(toolsNamed(loaded.spec, 'torchlens', '--tool')).toEqual({
      ids: ['tl_record', 'tl_bind'],
      package: 'torchlens',
    });
    expect(toolsNamed(loaded.spec, 'tl_record', '--tool')).toEqual({ ids: ['tl_record'], package: 'torchlens' });
    expect(toolsNamed(loaded.spec, 'hookkit', '--tool')).toEqual({ ids: ['hookkit'], package: 'hookkit' });
  });

  it.each([
    [
      'a tool the spec lacks',
      'nnsight',
      /has no tool or package named 'nnsight'\. Tools with a library to build: hookkit \(hookkit\), tl_record \(torchlens\)/,
    ],
    ['a tool without a library', 'hooks', /tool 'hooks' names no library/],
    [
      'a versioned tool',
      'demo-tool',
      /tool 'demo' declares `versions`; a source replaces a tool's one installed release/,
    ],
  ])('refuses %s', (_what, name, message) => {
    expect(() => toolsNamed(loaded.spec, name, '--tool-source x')).toThrow(message);
  });

  it('refuses a tool whose environment the spec does not declare', () => {
    const spec = {
      ...loaded.spec,
      tools: { ...loaded.spec.tools, hookkit: { ...loaded.spec.tools.hookkit, environment: 'elsewhere' } },
    };
    expect(() => toolsNamed(spec, 'hookkit', '--tool-source hookkit')).toThrow(
      /runs in environment 'elsewhere', which .* does not declare; a source is built as a layer/,
    );
  });

  it('runs a tool from source in a layer over its environment, with the same cells, leaving the spec as it was', () => {
    const src = source('a');
    const { spec, byTool } = withToolSources(loaded.spec, [{ tool: 'torchlens', source: src }]);
    const env = sourceEnvironmentId('main', 'torchlens', src);
    expect(env).toBe('main+torchlens-src-aaaaaaaaaaaa');
    expect([spec.tools.tl_record.environment, spec.tools.tl_bind.environment, spec.tools.hooks.environment]).toEqual([
      env,
      env,
      'main',
    ]);
    expect(spec.environments[env]).toMatchObject({
      requirements: ['torch==2.14.1', `torchlens @ source:${src.digest}`],
      layer: { base: 'main', requirements: ['torchlens from /src/a'], source: { package: 'torchlens', source: src } },
    });
    expect([...byTool.keys()]).toEqual(['tl_record', 'tl_bind']);
    expect(loaded.spec.tools.tl_record.environment).toBe('main');
    expect(planSpec(spec, adapterLookup(loaded.manifests)).cells.map((c) => c.id)).toEqual(
      loaded.plan.cells.map((c) => c.id),
    );
    expect(() =>
      withToolSources(loaded.spec, [
        { tool: 'torchlens', source: src },
        { tool: 'tl_record', source: source('b') },
      ]),
    ).toThrow(/tool 'tl_record' is named twice \(by 'torchlens' and 'tl_record'\)/);
  });

  it("splits a tool into its two sides, each in its side's environment; the pinned side keeps the tool's own", () => {
    const head = source('b');
    const split = withSides(loaded.spec, 'hookkit', { base: null, head });
    expect(split.spec.tools['hookkit@base'].environment).toBe('main');
    expect(split.spec.tools['hookkit@head'].environment).toBe(sourceEnvironmentId('main', 'hookkit', head));
    expect([...split.byTool.keys()]).toEqual(['hookkit@head']);
    const plan = planSpec(split.spec, adapterLookup(loaded.manifests));
    expect(changeCells(plan, null)).toEqual([
      'A/single_module_output/hookkit@base/s',
      'A/single_module_output/hookkit@head/s',
      'A/replacement_edit/hookkit@base/s',
      'A/replacement_edit/hookkit@head/s',
      'A/single_module_output/raw/s',
      'A/replacement_edit/raw/s',
    ]);
    // --only names the cells as the spec does, without the side.
    expect(changeCells(plan, 'A/replacement_edit/hookkit/*')).toEqual([
      'A/replacement_edit/hookkit@base/s',
      'A/replacement_edit/hookkit@head/s',
      'A/replacement_edit/raw/s',
    ]);
    expect(() => changeCells(plan, 'B/*/*/*')).toThrow(/matches no cell|match/);
    const withRef = { ...loaded.spec, groups: loaded.spec.groups.map((g) => ({ ...g, reference: 'hookkit' })) };
    expect(() => withSides(withRef, 'hookkit', { base: null, head })).toThrow(/'hookkit' is the reference of group A/);
  });

  it('refuses a build that installed another project than the tool', () => {
    const src = { package: 'torchlens', source: source('c') };
    expect(builtVersion(src, ['torchlens==2.36.2.dev1', 'numpy==1.26.4'])).toBe('2.36.2.dev1');
    expect(builtVersion({ ...src, package: 'Transformer_Lens' }, ['transformer-lens==4.3.0'])).toBe('4.3.0');
    expect(() => builtVersion(src, ['nnsight==0.8.1'])).toThrow(
      /installed nnsight, not torchlens: is it the tool's own project\?/,
    );
  });

  it('refuses to resume a run whose source changed since it started', async () => {
    const tree = fs.mkdtempSync(path.join(dir, 'tree-'));
    fs.cpSync(HOOKKIT, tree, { recursive: true });
    const first = await prepareSources(loaded, [{ tool: 'hookkit', side: null, source: tree, digest: null }]);
    const recorded = first.requests[0];
    expect(recorded).toMatchObject({ source: tree, given: tree, digest: expect.stringMatching(/^[0-9a-f]{64}$/) });
    fs.appendFileSync(path.join(tree, 'hookkit/_core.py'), '# changed\n');
    await expect(prepareSources(loaded, [recorded])).rejects.toThrow(
      /changed since this run started \(source digest \w{12} -> \w{12}\).*Start a new run/,
    );
  });
});

describe('a spec cannot name a source', () => {
  it('refuses a source field on a tool, at the top level, or in an environment (schema), so only the command line names one', async () => {
    for (const [field, text] of [
      [
        'tools.hookkit.source',
        SPEC.replace(
          'hookkit: { label: hookkit, runner: sourced }',
          'hookkit: { label: hookkit, runner: sourced, source: ../elsewhere }',
        ),
      ],
      ['tool_source', `${SPEC}tool_source: { hookkit: ../elsewhere }\n`],
      ['environments.main.source', SPEC.replace('main: { requirements', 'main: { source: ../elsewhere, requirements')],
    ]) {
      const loadedBad = await loadSpec(write(dir, `${field}.yaml`, text));
      expect(loadedBad.spec, field).toBeUndefined();
      expect(loadedBad.diagnostics.map((d) => d.message).join('\n'), field).toMatch(
        /unknown key '(source|tool_source)'/,
      );
    }
  });

  it('runs a spec with the tools it pins when no --tool-source is given: sources come from the command line only', async () => {
    const prepared = await prepareSources(loaded, []);
    expect(prepared.spec).toBe(loaded.spec);
    expect(Object.values(prepared.spec.environments).some((e) => e.layer?.source)).toBe(false);
    // And a run refuses --tool-source where it cannot honour it.
    await expect(
      run(path.join(dir, 'sources.yaml'), { toolSource: ['hookkit=../x'], executor: 'slurm' }),
    ).rejects.toThrow(/--tool-source builds a tool on this machine; it is not supported with --executor slurm/);
    await expect(
      run(path.join(dir, 'sources.yaml'), { toolSource: [`hookkit=${HOOKKIT}`], python: process.execPath }),
    ).rejects.toThrow(
      /--python runs every cell with one interpreter, where a tool from --tool-source is not installed/,
    );
  });
});

describe('the sides of one bench-change run', () => {
  // An ok cell named by its id, with the figures splitSides carries over.
  const cell = (id: string, extra: Partial<CellResult> = {}): CellResult => {
    const [group, contract, tool, subject] = id.split('/');
    const named = blank({ id, group, contract, tool, subject, reference: null }, 'ok', null);
    return { ...named, median_ms: 1, min_ms: 1, max_ms: 1, processes: 3, ...extra };
  };
  const results = {
    cells: [cell('A/c/t@base/s', { median_ms: 1 }), cell('A/c/t@head/s', { median_ms: 2 }), cell('A/c/raw/s')],
  } as unknown as Results;

  it("splits one run's cells into base and head under the tool's own id, the shared cells on both", () => {
    expect([sideOf('t@base'), sideOf('t@head'), sideOf('t@2.36.1'), sideOf('raw')]).toEqual([
      'base',
      'head',
      null,
      null,
    ]);
    expect(unsided('A/c/t@head/s')).toBe('A/c/t/s');
    expect(unsided('A/c/t@2.0/s')).toBe('A/c/t@2.0/s');
    const { before, after } = splitSides(results);
    expect(before.cells.map((c) => [c.id, c.tool, c.median_ms])).toEqual([
      ['A/c/t/s', 't', 1],
      ['A/c/raw/s', 'raw', 1],
    ]);
    expect(after.cells.map((c) => [c.id, c.tool, c.median_ms])).toEqual([
      ['A/c/t/s', 't', 2],
      ['A/c/raw/s', 'raw', 1],
    ]);
    const inScope = isToolCell(results);
    expect([inScope('A/c/t/s'), inScope('A/c/raw/s')]).toEqual([true, false]);
  });
});
