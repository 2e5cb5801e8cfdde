// A step's label by bench-change's rule, on made-up comparisons (compare's own computation of the labels
// and of --fail-on-slower is tested in test/compare/): slower exactly when bench-change --fail-on-slower
// would exit 4, the figure a tool verdict where there is one, else a cell's; and rev-list's records read as data.
import { describe, expect, it } from 'vitest';
import type { ChangeReport } from '../../src/change/render.ts';
import { parseRevList } from '../../src/change/revisions.ts';
import { changeVerdict } from '../../src/change/verdict.ts';

type Label = 'faster' | 'slower' | 'within_noise' | 'unavailable';
const iv = (low: number, high: number) => ({ low, high, kind: 'bootstrap95' as const });
const cell = (
  id: string,
  label: Label,
  ratio: number | null,
  interval = ratio === null ? null : iv(ratio * 0.9, ratio * 1.1),
) => ({ id, speed: { label, ratio, interval, why: `${id} is ${label}` } });
const tool = (label: Label, ratio: number | null, cells: number) => ({
  tool: 'hookkit',
  subject: 'resnet18',
  label,
  ratio,
  interval: ratio === null ? null : { low: ratio * 0.9, high: ratio * 1.1 },
  cells: Array(cells).fill('x'),
  why: label === 'unavailable' ? 'fewer than 3 cells' : '',
});

/** A report as judgeChange would make it: `failing` the cells and tools that fail --fail-on-slower 0.5. */
function report(
  cells: ReturnType<typeof cell>[],
  tools: ReturnType<typeof tool>[],
  failing: string[],
  failingTools: string[] = [],
  failOnSlower: number | null = 0.5,
): ChangeReport {
  const comparison = {
    settings: { fail_on_slower: failOnSlower },
    tools,
    cells,
    summary: { failing, failing_tools: failingTools },
  };
  return {
    format: 'benchgrid-change',
    version: 1,
    spec: 's',
    tool: 'hookkit',
    tools: ['hookkit'],
    sides: [],
    run: 'r',
    comparison,
  } as unknown as ChangeReport;
}

describe("a step's verdict", () => {
  it('is slower when a cell fails --fail-on-slower, with that cell as its figure when the tool has no verdict', () => {
    const v = changeVerdict(
      report(
        [cell('A/x/hookkit/s', 'slower', 4), cell('A/y/hookkit/s', 'within_noise', 1.01)],
        [tool('unavailable', null, 0)],
        ['A/x/hookkit/s'],
      ),
    );
    expect(v.label).toBe('slower');
    expect(v.figure).toMatchObject({
      of: 'A/x/hookkit/s',
      by: 'cell',
      label: 'slower',
      ratio: 4,
      interval: { low: 3.6, high: 4.4 },
    });
    expect(v.why).toBe('labelled slower with its whole 95% interval above +50%');
  });

  it('prefers the tool verdict as the figure when the tool fails', () => {
    const cells = ['a', 'b', 'c'].map((c) => cell(`A/${c}/hookkit/s`, 'slower', 3));
    const v = changeVerdict(
      report(
        cells,
        [tool('slower', 3.2, 3)],
        cells.map((c) => c.id),
        ['hookkit (resnet18)'],
      ),
    );
    expect([v.label, v.figure?.of, v.figure?.by, v.figure?.ratio]).toEqual([
      'slower',
      'hookkit (resnet18)',
      'tool',
      3.2,
    ]);
  });

  it('is not slower when something was judged and nothing fails, even a cell labelled slower by less than the limit', () => {
    const v = changeVerdict(report([cell('A/x/hookkit/s', 'slower', 1.2)], [tool('unavailable', null, 0)], []));
    expect([v.label, v.figure?.of, v.figure?.ratio]).toEqual(['not_slower', 'A/x/hookkit/s', 1.2]);
    expect(v.why).toBe('nothing labelled slower by more than +50%');
  });

  it('is unknown when nothing could be judged, saying why', () => {
    const v = changeVerdict(report([cell('A/x/hookkit/s', 'unavailable', null)], [], []));
    expect([v.label, v.figure]).toEqual(['unknown', null]);
    expect(v.why).toMatch(/no cell of hookkit could be compared \(A\/x\/hookkit\/s is unavailable\)/);
  });

  it('needs the comparison computed with a --fail-on-slower', () => {
    expect(() => changeVerdict(report([], [], [], [], null))).toThrow(/without --fail-on-slower/);
  });
});

describe('rev-list records', () => {
  it('reads id, first parent and subject, whatever the subject holds but a line break', () => {
    const out = ['commit aaa', '\0aaa\0ppp qqq\0merge: a\0b | `c` \u001b[2J', 'commit bbb', '\0bbb\0\0'].join('\n');
    expect(parseRevList(out)).toEqual([
      { id: 'aaa', parent: 'ppp', subject: 'merge: a\0b | `c` \u001b[2J' },
      { id: 'bbb', parent: null, subject: '' },
    ]);
  });
});
