// Every table fits the terminal: plan, report table, compare and diff at 80 and 100 columns.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, ROOT, PREDECESSOR_RESULTS } from '../helpers.ts';
import { fitTable } from '../../src/util/fit-table.ts';
import stringWidth from 'string-width';
import { cutMiddle, fitLine, sliceColumns, terminalWidth, visibleLength, wrapLine } from '../../src/util/width.ts';

const CPU = path.join(FIXTURES, 'compare/cpu-run.results.json');
const DIFFS = fs
  .readdirSync(path.join(FIXTURES, 'diff'))
  .filter((d) => fs.existsSync(path.join(FIXTURES, 'diff', d, 'old.yaml')));

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
    for (const tool of ['tl_trace_sparse', 'tl_extract_dataset', 'transformer_lens', 'thingsvision'])
      expect(runs[0].stdout).toContain(tool);
  }, 120_000);

  it('diff prints no line wider than the terminal, for every fixture pair', async () => {
    for (const d of DIFFS) {
      const r = await cli(
        ['diff', path.join(FIXTURES, 'diff', d, 'old.yaml'), path.join(FIXTURES, 'diff', d, 'new.yaml')],
        { env },
      );
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

  it('counts terminal cells: CJK characters and emoji take two columns, colour codes none', () => {
    expect(visibleLength('\x1b[31m钩子🙂\x1b[0m ok')).toBe(9);
    expect(visibleLength('e\u0301')).toBe(1);
    // Cuts fall between characters, never inside a wide one or an emoji's surrogate pair.
    expect(fitLine('钩子🙂abc', 6)).toBe('钩子…');
    expect(sliceColumns('钩子🙂abc', 5)).toBe('钩子');
    expect(cutMiddle('模型名称很长的🙂', 9)).toBe('模型…的🙂');
    for (const l of wrapLine('说明 '.repeat(30), 21)) expect(stringWidth(l)).toBeLessThanOrEqual(21);
  });

  it('fits a grid whose row labels hold CJK characters and an emoji, its columns lined up', () => {
    const rows = [
      ['钩子钩子钩子钩子🙂', '1.00 ms'],
      ['raw', '2.00 ms'],
    ];
    // 18 columns of label, 7 of time: 33 wide in all, which code points (11 for the label) would take for 24.
    const lines = fitTable({ head: ['cell', 'time'], rows, color: false, compact: true }, 30);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(30);
    // The label gave up the room, not the time column at the end of each line.
    expect(lines.join('\n')).toContain('│ 1.00 ms │');
    expect(lines.join('\n')).toContain('…钩子🙂 │');
    const at = (l: string) =>
      [...l].reduce<{ col: number; bars: number[] }>(
        (a, ch) => ({ col: a.col + stringWidth(ch), bars: '│┌┬┐├┼┤└┴┘'.includes(ch) ? [...a.bars, a.col] : a.bars }),
        { col: 0, bars: [] },
      ).bars;
    for (const l of lines) expect(at(l)).toEqual(at(lines[0]));
  });

  it('takes the width from a TTY, else $COLUMNS, else 100', () => {
    expect(terminalWidth({ isTTY: true, columns: 90 }, {})).toBe(90);
    expect(terminalWidth({ isTTY: false }, { COLUMNS: '72' })).toBe(72);
    expect(terminalWidth({}, {})).toBe(100);
  });
});
