// The pure diff on what invalidates nothing or renames: label and page text, page rows, renamed subjects
// and tools (and renames that are not), and a spec born or deleted.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSpecs } from '../../src/diff/compute.ts';
import { CELLS, diffFromSmall, diffTexts, load, PAIRS, variant } from './fixtures.ts';

/** The replacements that rename tool tv_fx to fx wherever the small spec names it, defined anew as `definition`. */
const tvFxAsFx = (definition: string): [string, string][] => [
  ['  tv_fx: { label: torchvision fx }', `  fx: ${definition}`],
  ['tools: [raw, hooks, tv_fx]', 'tools: [raw, hooks, fx]'],
  ['tools: [tv_fx]', 'tools: [fx]'],
];

describe('diffSpecs on labels, page rows, renames and whole specs', () => {
  it('label and page text changes invalidate nothing', async () => {
    const d = await diffFromSmall(
      ['hooks: { label: forward hooks }', 'hooks: { label: PyTorch forward hooks }'],
      ['title: Small\n', 'title: Smaller\n'],
      ['{ tool: hooks, label: forward hook }', '{ tool: hooks, label: a forward hook }'],
      ["- label: one module's output", '- label: the output of one module'],
    );
    expect(d.labels).toEqual([
      { kind: 'spec', id: null, field: 'title', from: 'Small', to: 'Smaller' },
      { kind: 'tool', id: 'hooks', field: 'label', from: 'forward hooks', to: 'PyTorch forward hooks' },
    ]);
    expect(d.page.relabelled).toEqual([
      {
        cell: CELLS.smoRaw,
        was: null,
        from: { section: 'Small', row: "one module's output", entry: 'plain forward' },
        to: { section: 'Small', row: 'the output of one module', entry: 'plain forward' },
      },
      {
        cell: CELLS.smoHooks,
        was: null,
        from: { section: 'Small', row: "one module's output", entry: 'forward hook' },
        to: { section: 'Small', row: 'the output of one module', entry: 'a forward hook' },
      },
    ]);
    expect([d.definitions, d.invalidated, d.changed]).toEqual([[], [], true]);
  });

  it('page rows added and removed', async () => {
    const d = await diffFromSmall(['            - { tool: raw }\n', '            - { tool: tv_fx }\n']);
    expect(d.page.added).toEqual([
      { cell: CELLS.smoFx, section: 'Small', row: "one module's output", entry: 'torchvision fx' },
    ]);
    expect(d.page.removed).toEqual([
      { cell: CELLS.smoRaw, section: 'Small', row: "one module's output", entry: 'plain forward' },
    ]);
  });

  it('a renamed subject renames its cells and page rows; a renamed and relabelled tool is still a rename', async () => {
    const d = await diffFromSmall(
      ['  resnet18:\n', '  rn18:\n'],
      ['subjects: [resnet18]', 'subjects: [rn18]'],
      ['subjects: [resnet18]', 'subjects: [rn18]'],
      ...tvFxAsFx('{ label: torch.fx, adapter: tv_fx }'),
    );
    expect(d.renames).toEqual([
      { kind: 'subject', from: 'resnet18', to: 'rn18' },
      { kind: 'tool', from: 'tv_fx', to: 'fx' },
    ]);
    expect(d.cells.renamed.map((r) => r.to)).toEqual([
      'A/single_module_output/raw/rn18',
      'A/single_module_output/hooks/rn18',
      'A/single_module_output/fx/rn18',
      'A/replacement_edit/raw/rn18',
      'A/replacement_edit/hooks/rn18',
      'A/replacement_edit/fx/rn18',
      'B/raw_forward/reference/rn18',
    ]);
    expect([d.cells.added, d.cells.removed, d.page.added, d.page.removed, d.page.relabelled, d.invalidated]).toEqual([
      [],
      [],
      [],
      [],
      [],
      [],
    ]);
    expect(d.labels).toEqual([{ kind: 'tool', id: 'fx', field: 'label', from: 'torchvision fx', to: 'torch.fx' }]);
  });

  it('a rename whose definition also changed is a removal and an addition', async () => {
    const d = await diffFromSmall(...tvFxAsFx('{ label: torchvision fx, adapter: hooks }'));
    expect(d.renames).toEqual([]);
    expect(d.definitions.map((x) => [x.kind, x.id, x.change])).toEqual([
      ['tool', 'tv_fx', 'removed'],
      ['tool', 'fx', 'added'],
    ]);
    expect(d.cells.added.map((c) => c.id)).toEqual([
      'A/single_module_output/fx/resnet18',
      'A/replacement_edit/fx/resnet18',
    ]);
  });

  it('two candidates with one definition pair by label, or not at all', async () => {
    const two = (a: string, b: string) =>
      variant(
        [
          '  hooks: { label: forward hooks }',
          `  hooks_a: { label: ${a}, adapter: hooks }\n  hooks_b: { label: ${b}, adapter: hooks }`,
        ],
        ['tools: [raw, hooks, tv_fx]', 'tools: [raw, hooks_a, hooks_b, tv_fx]'],
        ['reference: hooks', 'reference: hooks_a'],
        ['tool: hooks,', 'tool: hooks_a,'],
      );
    expect((await diffTexts(variant(), two('forward hooks', 'other hooks'))).renames).toEqual([
      { kind: 'tool', from: 'hooks', to: 'hooks_a' },
    ]);
    expect((await diffTexts(variant(), two('first', 'second'))).renames).toEqual([]);
  });

  it('a new spec adds every cell and a deleted one removes them', async () => {
    const small = await load(path.join(PAIRS, 'protocol-change/old.yaml'));
    const born = diffSpecs(null, { ...small, file: 'new.yaml' });
    expect([born.old, born.changed, born.cells.added.length, born.page.added.length, born.definitions]).toEqual([
      null,
      true,
      7,
      2,
      [],
    ]);
    const gone = diffSpecs({ ...small, file: 'old.yaml' }, null);
    expect([gone.new, gone.cells.removed.length, gone.page.removed.length]).toEqual([null, 7, 2]);
  });
});
