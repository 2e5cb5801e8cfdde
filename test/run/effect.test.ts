// The effect-size guard in real Python processes with real torch: an adapter whose writes silently do nothing is a
// mismatch wherever the reference's write moves the output; a write too weak to move it makes every tool's cell
// `vacuous`, with the guard's figure, in every report; decoder cells carry top-1 agreement, TV distance and where
// generated tokens part.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellResult } from '../../src/results/model.ts';
import { cli, FIXTURES } from '../helpers.ts';
import { cellOf, runBeforeAll } from './cell-fixtures.ts';

const SPEC = path.join(FIXTURES, 'specs/effect.yaml');
const run = runBeforeAll(SPEC, 500_000);

const MOVING = [
  'A/replacement_edit/%/resnet18',
  'A/repeated_steering/%/resnet18',
  'A/replacement_edit/%/gpt2',
  'A/repeated_steering/%/gpt2',
  'M/activation_patching/%/gpt2',
  'M/steered_generation/%/gpt2',
];
const WEAK = ['A/weak_steering/%/resnet18', 'A/weak_steering/%/gpt2', 'M/weak_generation/%/gpt2'];
const cell = (id: string): CellResult => cellOf(run.results, id);
const of = (pattern: string, tool: string) => cell(pattern.replace('%', tool));

describe('a write that silently does nothing', () => {
  it("is a mismatch wherever the guard sees the reference's write move the output", () => {
    for (const pattern of MOVING) {
      const dropped = of(pattern, 'dropped');
      expect({ id: dropped.id, exact: dropped.exact, vacuous: dropped.effect?.vacuous }).toEqual({
        id: dropped.id,
        exact: 'mismatch',
        vacuous: false,
      });
      const faithful = of(pattern, 'faithful');
      expect({ id: faithful.id, exact: faithful.exact }).toEqual({ id: faithful.id, exact: 'bit' });
      // The same reference, the same write: both cells carry the same guard.
      expect(faithful.effect).toEqual(dropped.effect);
    }
    expect(of('A/replacement_edit/%/resnet18', 'dropped').effect!.max_abs_diff).toBeGreaterThan(1e-3);
  });

  it("leaves the reference's own cell without a verdict or a guard", () => {
    const hooks = of('A/replacement_edit/%/gpt2', 'hooks');
    expect([hooks.exact, hooks.effect ?? null]).toEqual([null, null]);
  });
});

describe('a write too weak to move the output', () => {
  it("makes every tool's cell vacuous, the faithful one and the one that writes nothing alike", () => {
    for (const pattern of WEAK) {
      for (const tool of ['faithful', 'dropped']) {
        const c = of(pattern, tool);
        expect({ id: c.id, exact: c.exact, vacuous: c.effect?.vacuous }).toEqual({
          id: c.id,
          exact: 'vacuous',
          vacuous: true,
        });
      }
    }
    const steering = of('A/weak_steering/%/gpt2', 'faithful').effect!;
    expect(steering.max_abs_diff).toBeLessThan(1e-6);
    expect(of('M/weak_generation/%/gpt2', 'faithful').effect).toMatchObject({
      max_abs_diff: null,
      top1_agreement: 1,
      first_divergence: null,
    });
  });

  it("reads vacuous with the guard's figure in the markdown page, the table, the HTML report and the JSON", async () => {
    const file = path.join(run.out, 'results.json');
    const vacuous = /vacuous \(the write does not move the output: max abs diff [\d.e-]+ from the unwritten output\)/;
    const md = await cli(['report', file, '--spec', SPEC, '--format', 'markdown']);
    expect(md.stdout).toMatch(
      new RegExp(`\\| weak_steering, n=1 processes \\| dropped \\| [^|]+ \\|[^|]*\\|[^|]*\\| ${vacuous.source} \\|`),
    );
    const table = await cli(['report', file, '--spec', SPEC, '--format', 'table']);
    expect(table.stdout).toMatch(/weak_steering +│ [\d.]+ ms +│ [\d.]+ ms \? \(\w\)/);
    expect(table.stdout).toMatch(new RegExp(`\\(\\w\\) ${vacuous.source}`));
    // The table folds long key lines to the terminal's width.
    expect(table.stdout.replace(/\s+/g, ' ')).toContain(
      'vacuous (the write does not move the output: every generated token the same as without the write)',
    );
    const html = await cli(['report', file, '--spec', SPEC, '--format', 'html']);
    expect(html.stdout).toMatch(vacuous);
    const json = JSON.parse((await cli(['report', file, '--format', 'json'])).stdout);
    const weak = json.cells.find((c: CellResult) => c.id === 'A/weak_steering/dropped/resnet18');
    expect([weak.exact, weak.effect.vacuous]).toEqual(['vacuous', true]);
  });

  it('is no agreement for compare: a cell going from bit to vacuous got worse', async () => {
    const file = path.join(run.out, 'results.json');
    const { fromJson } = await import('../../src/results/load.ts');
    const { toJson } = await import('../../src/results/write.ts');
    const before = JSON.parse(JSON.stringify(toJson(run.results)));
    before.resnet18.groups['A/weak_steering/faithful/resnet18'].exact = 'bit';
    delete before.resnet18.groups['A/weak_steering/faithful/resnet18'].effect;
    fromJson(before); // still a valid results file
    const { tmpdir, write } = await import('../helpers.ts');
    const beforeFile = write(tmpdir(), 'before.json', JSON.stringify(before));
    const r = await cli(['compare', beforeFile, file, '--format', 'json']);
    const x = JSON.parse(r.stdout).cells.find((c: { id: string }) => c.id === 'A/weak_steering/faithful/resnet18');
    expect(x.exactness).toEqual({ before: 'bit', after: 'vacuous', worse: true });
  });
});

describe('decoder cells', () => {
  it('carry top-1 agreement and TV distance for logits, and where the generated tokens part', () => {
    const edit = of('A/replacement_edit/%/gpt2', 'dropped');
    expect(edit.agreement!.top1_agreement).toBeLessThan(1);
    expect(edit.agreement!.tv_distance).toBeGreaterThan(0);
    expect(of('A/replacement_edit/%/gpt2', 'faithful').agreement).toEqual({ top1_agreement: 1, tv_distance: 0 });
    const generation = of('M/steered_generation/%/gpt2', 'dropped').agreement!;
    expect(generation.top1_agreement).toBeLessThan(1);
    expect(generation.first_divergence).toBeGreaterThanOrEqual(0);
    expect(of('M/steered_generation/%/gpt2', 'faithful').agreement).toEqual({
      top1_agreement: 1,
      first_divergence: null,
    });
    // The logit difference of activation patching is numbers, not logits: no task-level figures.
    expect(of('M/activation_patching/%/gpt2', 'dropped').agreement ?? null).toBeNull();
  });

  it('show them beside the max abs diff in the markdown page', async () => {
    const md = await cli(['report', path.join(run.out, 'results.json'), '--spec', SPEC, '--format', 'markdown']);
    expect(md.stdout).toMatch(
      /\| replacement_edit, n=1 processes \| dropped \|[^\n]*\| mismatch \(max abs diff [\d.e-]+; top-1 [\d.]+, TV [\d.e-]+\) \|/,
    );
    expect(md.stdout).toMatch(
      /\| steered_generation, n=1 processes \| dropped \|[^\n]*\| mismatch \(max abs diff \d+; tokens part from new token \d+, top-1 [\d.]+\) \|/,
    );
  });
});
