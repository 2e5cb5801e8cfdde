// The pure diff over fixture pairs: the exact SpecDiff for each kind of change, and which definition
// changes invalidate which cells. Labels, page rows, renames and whole specs are in compute-renames.test.ts.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cellsToMeasure } from '../../src/diff/compute.ts';
import { CELLS, diffFromSmall, diffPair, diffTexts, expected, PAIRS, variant } from './fixtures.ts';

const same: [number, number] = [7, 7];
const planned6: [number, number] = [6, 6];
const everyPlanned = [CELLS.smoRaw, CELLS.smoHooks, CELLS.smoFx, CELLS.editRaw, CELLS.editHooks, CELLS.forward];
/** A cell as the diff lists it: planned, or the feature extractor's edit it cannot make. */
const planned = (id: string) => ({ id, status: 'planned' as const, reason: null });
const editFx = { id: CELLS.editFx, status: 'unsupported' as const, reason: 'a feature extractor reads outputs' };

/** Checks that the fixture pair `name` (test/fixtures/diff/NAME/{old,new}.yaml) differs by exactly `parts`. */
async function expectPairDiff(name: string, ...want: Parameters<typeof expected>): Promise<void> {
  expect(await diffPair(name)).toEqual(expected(...want));
}

describe('diffSpecs over the fixture pairs', () => {
  it('an added tool adds its cells, planned or with their reason, and invalidates nothing', async () => {
    await expectPairDiff(
      'added-tool',
      {
        cells: { added: [planned(CELLS.smoFx), editFx] },
        definitions: [{ kind: 'tool', id: 'tv_fx', change: 'added', fields: [], invalidates: [] }],
      },
      { cells: [5, 7], planned: [5, 6] },
    );
  });

  it('a removed contract removes its cells', async () => {
    await expectPairDiff(
      'removed-contract',
      {
        cells: { removed: [planned(CELLS.editRaw), planned(CELLS.editHooks), editFx] },
        definitions: [{ kind: 'contract', id: 'replacement_edit', change: 'removed', fields: [], invalidates: [] }],
      },
      { cells: [7, 4], planned: [6, 4] },
    );
  });

  it('a new reason flips a cell with both reasons, and a reworded reason is a reason change', async () => {
    await expectPairDiff(
      'flipped-reason',
      {
        cells: {
          flipped: [
            {
              id: CELLS.editRaw,
              was: null,
              from: { status: 'planned', reason: null },
              to: { status: 'unsupported', reason: 'an unedited forward pass says nothing about edits' },
            },
          ],
          reasonChanged: [
            {
              id: CELLS.editFx,
              was: null,
              from: 'a feature extractor reads outputs',
              to: 'a feature extractor reads outputs; it cannot edit',
            },
          ],
        },
      },
      { cells: same, planned: [6, 5] },
    );
  });

  it('a protocol change invalidates every planned cell', async () => {
    await expectPairDiff(
      'protocol-change',
      {
        definitions: [
          {
            kind: 'protocol',
            id: null,
            change: 'changed',
            fields: [{ path: 'samples', from: 3, to: 5 }],
            invalidates: everyPlanned,
          },
        ],
        invalidated: everyPlanned,
      },
      { cells: same, planned: planned6 },
    );
  });

  it("a subject's site change invalidates only the cells of contracts that read that site", async () => {
    const readers = [CELLS.smoRaw, CELLS.smoHooks, CELLS.smoFx, CELLS.editRaw, CELLS.editHooks];
    await expectPairDiff(
      'subject-site-change',
      {
        definitions: [
          {
            kind: 'subject',
            id: 'resnet18',
            change: 'changed',
            fields: [{ path: 'sites.layer2', from: 'layer2', to: 'layer3' }],
            invalidates: readers,
          },
        ],
        invalidated: readers,
      },
      { cells: same, planned: planned6 },
    );
  });

  it('a renamed tool and contract are renames, their cells matched, not removed and added', async () => {
    await expectPairDiff(
      'rename',
      {
        renames: [
          { kind: 'contract', from: 'raw_forward', to: 'plain_forward' },
          { kind: 'tool', from: 'hooks', to: 'forward_hooks' },
        ],
        cells: {
          renamed: [
            { from: CELLS.smoHooks, to: 'A/single_module_output/forward_hooks/resnet18' },
            { from: CELLS.editHooks, to: 'A/replacement_edit/forward_hooks/resnet18' },
            { from: CELLS.forward, to: 'B/plain_forward/reference/resnet18' },
          ],
        },
      },
      { cells: same, planned: planned6 },
    );
  });

  it('a change in the file a spec extends is seen through: the resolved specs are compared', async () => {
    await expectPairDiff(
      'extends-change',
      {
        definitions: [
          {
            kind: 'subject',
            id: 'resnet18',
            change: 'changed',
            fields: [{ path: 'inputs.shape', from: [1, 3, 32, 32], to: [1, 3, 64, 64] }],
            invalidates: everyPlanned,
          },
        ],
        invalidated: everyPlanned,
      },
      { cells: same, planned: planned6 },
    );
  });
});

describe('diffSpecs on other changes', () => {
  it('two identical versions differ in nothing', async () => {
    const d = await diffTexts(variant(), variant());
    expect(d).toEqual({ ...expected({}, { cells: same, planned: planned6 }), changed: false });
  });

  it("an environment's requirements invalidate the cells of the tools in it", async () => {
    const env = (pin: string): [string, string] => [
      'subjects:',
      `environments:\n  main: { requirements: [torch==${pin}] }\nsubjects:`,
    ];
    const d = await diffTexts(variant(env('2.5.0')), variant(env('2.6.0')));
    expect(d.definitions).toEqual([
      {
        kind: 'environment',
        id: 'main',
        change: 'changed',
        fields: [{ path: 'requirements', from: ['torch==2.5.0'], to: ['torch==2.6.0'] }],
        invalidates: everyPlanned,
      },
    ]);
  });

  it("an environment's package index invalidates the cells of the tools in it, as a pin does", async () => {
    const env = (index: string): [string, string] => [
      'subjects:',
      `environments:\n  main: { requirements: [torch==2.5.0]${index} }\nsubjects:`,
    ];
    const d = await diffTexts(variant(env('')), variant(env(', index_url: "https://download.pytorch.org/whl/cpu"')));
    expect(d.definitions).toEqual([
      {
        kind: 'environment',
        id: 'main',
        change: 'changed',
        fields: [{ path: 'index.index_url', from: null, to: 'https://download.pytorch.org/whl/cpu' }],
        invalidates: everyPlanned,
      },
    ]);
  });

  it("a tool's adapter change invalidates that tool's cells only", async () => {
    const d = await diffTexts(
      variant(),
      variant(['tv_fx: { label: torchvision fx }', 'tv_fx: { label: torchvision fx, adapter: hooks }']),
    );
    expect(d.definitions).toEqual([
      {
        kind: 'tool',
        id: 'tv_fx',
        change: 'changed',
        fields: [{ path: 'adapter', from: 'tv_fx', to: 'hooks' }],
        invalidates: [CELLS.smoFx],
      },
    ]);
    expect(d.invalidated).toEqual([CELLS.smoFx]);
  });

  it('an input seed or a device change invalidates; the device invalidates every planned cell', async () => {
    const seed = await diffFromSmall(['seed: 0 }\n    sites', 'seed: 1 }\n    sites']);
    expect(seed.definitions.map((x) => [x.kind, x.fields, x.invalidates.length])).toEqual([
      ['subject', [{ path: 'inputs.seed', from: 0, to: 1 }], 6],
    ]);
    const device = await diffFromSmall(['device: cpu', 'device: cuda']);
    expect(device.definitions).toEqual([
      {
        kind: 'device',
        id: null,
        change: 'changed',
        fields: [{ path: 'device', from: 'cpu', to: 'cuda' }],
        invalidates: everyPlanned,
      },
    ]);
  });

  it('a new reference tool invalidates the cells whose exactness it checks', async () => {
    const d = await diffFromSmall(['reference: hooks', 'reference: tv_fx']);
    // raw is not comparable (no reference either way); hooks is now checked against tv_fx, tv_fx no longer is.
    expect(d.definitions).toEqual([
      {
        kind: 'group',
        id: 'A',
        change: 'changed',
        fields: [{ path: 'reference', from: 'hooks', to: 'tv_fx' }],
        invalidates: [CELLS.smoHooks, CELLS.smoFx, CELLS.editHooks],
      },
    ]);
  });
});

describe('cellsToMeasure', () => {
  it('lists added planned cells, cells flipped to planned and invalidated cells, not renamed ones', async () => {
    expect(cellsToMeasure(await diffPair('added-tool'))).toEqual([CELLS.smoFx]);
    expect(cellsToMeasure(await diffPair('protocol-change'))).toEqual(everyPlanned);
    expect(cellsToMeasure(await diffPair('rename'))).toEqual([]);
    const reverse = await diffTexts(
      (await import('node:fs')).readFileSync(path.join(PAIRS, 'flipped-reason/new.yaml'), 'utf8'),
      variant(),
    );
    expect(cellsToMeasure(reverse)).toEqual([CELLS.editRaw]);
  });
});
