import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/compare/compute.ts';
import { viewOf } from '../../src/compare/view.ts';
import { renderMarkdown } from '../../src/compare/render-markdown.ts';
import { renderTable } from '../../src/compare/render-table.ts';
import { loadResults } from '../../src/results/load.ts';
import { PREDECESSOR_RESULTS } from '../helpers.ts';
import { cpuRun } from './fixtures.ts';

/** Two runs of the same cells with nothing changed but the noise. */
const cpuVsCpu = () => compareResults(cpuRun({ seed: 1 }), cpuRun({ seed: 2 }), { before: 'a.json', after: 'b.json' });

/** The terminal columns at which each border of a grid line stands (wide characters take two). */
const borders = (line: string) => {
  const at: number[] = [];
  let col = 0;
  for (const { segment } of new Intl.Segmenter().segment(line)) {
    if ('│┌┬┐├┼┤└┴┘'.includes(segment)) at.push(col);
    col += stringWidth(segment);
  }
  return at;
};

const predecessorVsCpu = () =>
  compareResults(
    loadResults(PREDECESSOR_RESULTS),
    cpuRun(),
    { before: 'seed.json', after: 'cpu.json' },
    { fail_on_slower: 0.1 },
  );

describe('renderTable', () => {
  const text = renderTable(predecessorVsCpu(), false, 300);

  it('starts with the runs and the environment differences, before any timing', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('before: seed.json (seed layout, measured 2026-11-03, no raw samples)');
    expect(lines[1]).toBe('after:  cpu.json (benchgrid, spec resnet18-cpu, measured 2026-11-30)');
    expect(lines[3]).toMatch(/^Environment differs \(\d+ blocking\)/);
    expect(lines[4]).toBe('  device: cuda -> cpu');
    expect(text.indexOf('device: cuda -> cpu')).toBeLessThan(text.indexOf('┌'));
  });

  it('marks range-rule labels and explains the marker, keys unlabelled reasons, lists changes and the gate', () => {
    expect(text).toMatch(/A\/single_module_output\/raw\/resnet18 .* slower † /);
    expect(text).toContain('† range rule: a file has no raw samples');
    expect(text).toMatch(/nnsight\/resnet18 .* unavailable \(a\)/);
    expect(text).toContain('  (a) withheld: exactness got worse (bit -> close)');
    expect(text).toContain(
      'A/single_module_output/thingsvision/resnet18: unsupported (thingsvision is measured only on its extraction task) -> error (ImportError: thingsvision is not installed)',
    );
    expect(text).toContain('A/single_module_output/nnsight/resnet18: bit -> close (worse: speed label withheld)');
    expect(text).toContain('Only in after (1): A/single_module_output/fx_tracer/resnet18');
    expect(text).toMatch(/--fail-on-slower 10\.0%: 3 cell\(s\) significantly slower by more than that/);
  });

  it('has no colour codes without colour', () => {
    expect(text).not.toMatch(/\x1b\[/);
  });

  it('at 100 columns leaves out what every row shares, so the contract and the tool stay whole', () => {
    const narrow = renderTable(predecessorVsCpu(), false, 100);
    expect(narrow).toContain('On every row: group A, contract single_module_output, subject resnet18.');
    const ids = narrow
      .split('\n')
      .filter((l) => l.startsWith('│ '))
      .map((l) => l.split('│')[1].trim());
    expect(ids).toContain('tool');
    expect(ids).toContain('tl_extract_dataset');
    expect(ids.filter((id) => id.includes('…'))).toEqual([]);
    // The lists under the table still name cells in full.
    expect(narrow).toContain('A/single_module_output/nnsight/resnet18: bit -> close (worse: speed label withheld)');
  });

  it('lines the columns up when a name holds CJK characters and an emoji', () => {
    const c = cpuVsCpu();
    c.cells[1].id = 'A/single_module_output/钩子🙂/resnet18';
    for (const width of [200, 60]) {
      const grid = renderTable(c, false, width)
        .split('\n')
        .filter((l) => /^[│┌├└]/.test(l));
      expect(grid.some((l) => l.includes('钩子🙂'))).toBe(true);
      // Every line of a grid has its borders at the same columns as the grid's top line.
      const tops = grid.flatMap((l, i) => (l.startsWith('┌') ? [i] : []));
      for (const [k, top] of tops.entries()) {
        for (const l of grid.slice(top, tops[k + 1])) expect(borders(l)).toEqual(borders(grid[top]));
      }
      for (const l of grid) expect(stringWidth(l)).toBeLessThanOrEqual(width);
    }
  });
});

describe('--only-changed with nothing changed', () => {
  const view = () => viewOf(cpuVsCpu(), { onlyChanged: true, sort: 'file' });

  it('says so in one line in the table format, with no empty table under it', () => {
    const { hidden, ...shown } = view();
    expect(shown.cells).toEqual([]);
    const text = renderTable(shown, false, 100, hidden);
    expect(text).toContain(`No cell changed beyond noise (--only-changed): ${hidden} cells compared.`);
    expect(text).not.toContain('Showing the 0 cells');
    expect(text).not.toMatch(/[┌│└]/);
    expect(text).not.toContain('interval: 95% hierarchical bootstrap CI');
  });

  it('says so in one line in the markdown, with no empty table', () => {
    const { hidden, ...shown } = view();
    const md = renderMarkdown(shown, hidden);
    expect(md).toContain(`No cell changed beyond noise (--only-changed): ${hidden} cells compared.`);
    expect(md).not.toContain('| cell |');
    expect(md).not.toContain('<sub>interval');
  });
});

describe('renderMarkdown', () => {
  const md = renderMarkdown(predecessorVsCpu());

  it('opens with the summary and a warning listing the environment differences before the table', () => {
    expect(md.split('\n').slice(0, 2)).toEqual([
      '<!-- benchgrid:compare -->',
      '### benchgrid compare: 3 slower, 0 faster, 1 within noise, 80 unavailable (of 84 cells, 77 of them in one file only)',
    ]);
    expect(md).toContain('> [!WARNING]');
    expect(md).toContain('> - device: `cuda` -> `cpu`');
    expect(md.indexOf('> [!WARNING]')).toBeLessThan(md.indexOf('| cell |'));
  });

  it('renders a GitHub table with bold labels and the † note', () => {
    expect(md).toContain('| cell | before | after | change | interval | rule | other | MW p | label |');
    // The raw cell is its own baseline: no ratio rule, the absolute rule decides.
    expect(md).toMatch(
      /\| `A\/single_module_output\/raw\/resnet18` \| 2\.30 ms \| 12\.\d\d ms \| \+\d+\.\d% \| .* † \| absolute \|  \|  \| \*\*slower †\*\* \|/,
    );
    expect(md).toContain('† range rule');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('escapes pipes inside cells', () => {
    const c = predecessorVsCpu();
    c.cells[0].speed = { ...c.cells[0].speed, label: 'unavailable', why: 'a | b' };
    expect(renderMarkdown(c)).toContain('- (a) a \\| b');
  });
});
