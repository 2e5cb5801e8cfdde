// Every table fits the terminal: plan, report table, compare and diff at 80 and 100 columns.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, ROOT, PREDECESSOR_RESULTS } from '../helpers.ts';
import { fitTable } from '../../src/util/fit-table.ts';
import { fitLine, terminalWidth, wrapLine } from '../../src/util/width.ts';

const CPU = path.join(FIXTURES, 'compare/cpu-run.results.json');
const DIFFS = fs.readdirSync(path.join(FIXTURES, 'diff')).filter((d) => fs.existsSync(path.join(FIXTURES, 'diff', d, 'old.yaml')));

const tooLong = (text: string, width: number) => text.split('\n').filter((l) => [...l].length > width);

describe.each([80, 100])('at %i columns', (width) => {
  const env = { COLUMNS: String(width) };

  it('plan, report and compare print no line wider than the terminal', async () => {
    const runs = await Promise.all([
      cli(['plan', path.join(ROOT, 'specs/resnet18_cpu.yaml')], { env }),
      cli(['report', PREDECESSOR_RESULTS, '--spec', path.join(ROOT, 'specs/resnet18_gpu.yaml')], { env }),
      cli(['compare', PREDECESSOR_RESULTS, CPU], { env }),
    ]);
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(tooLong(r.stdout, width)).toEqual([]);
    }
    // Nothing is lost to fitting: every tool of the plan is still named, in a grid or in the legend.
    for (const tool of ['tl_trace_sparse', 'tl_extract_dataset', 'transformer_lens', 'thingsvision']) expect(runs[0].stdout).toContain(tool);
  }, 120_000);

  it('diff prints no line wider than the terminal, for every fixture pair', async () => {
    for (const d of DIFFS) {
      const r = await cli(['diff', path.join(FIXTURES, 'diff', d, 'old.yaml'), path.join(FIXTURES, 'diff', d, 'new.yaml')], { env });
      expect(tooLong(r.stdout, width), d).toEqual([]);
    }
  }, 300_000);
});

describe('fitting helpers', () => {
  it('a table too wide keys its long headings with a legend, then splits its columns, never overflowing', () => {
    const head = ['', ...Array.from({ length: 12 }, (_, i) => `a_rather_long_tool_name_${i}`)];
    const rows = [['contract', ...Array(12).fill('run')]];
    const lines = fitTable({ head, rows, color: false }, 60);
    expect(lines.filter((l) => [...l].length > 60)).toEqual([]);
    expect(lines.join('\n')).toContain('c12=a_rather_long_tool_name_11');
  });

  it('cuts a line with an ellipsis and wraps one with a hanging indent', () => {
    expect(fitLine('abcdefghij', 5)).toBe('abcd…');
    expect(wrapLine('  one two three four five', 12)).toEqual(['  one two', '      three', '      four', '      five']);
    // Spacing inside a line is kept; an indent deeper than the width still ends, every line fitting.
    expect(wrapLine('+ a/b  planned: a reason', 16)).toEqual(['+ a/b  planned:', '    a reason']);
    for (const l of wrapLine(' '.repeat(60) + 'word '.repeat(30), 40)) expect(l.length).toBeLessThanOrEqual(40);
  });

  it('takes the width from a TTY, else $COLUMNS, else 100', () => {
    expect(terminalWidth({ isTTY: true, columns: 90 }, {})).toBe(90);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: '72' })).toBe(72);
    expect(terminalWidth({}, {})).toBe(100);
  });
});
