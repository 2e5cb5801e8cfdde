// The progress line is redrawn in place and never wraps: it stays one column short of the terminal.
import { describe, expect, it } from 'vitest';
import { progress } from '../../../src/executors/local/progress.ts';

function fakeTty(columns: number) {
  const writes: string[] = [];
  const stream = { isTTY: true, columns, write: (s: string) => writes.push(s) > 0 };
  return { stream: stream as unknown as NodeJS.WriteStream, writes };
}

describe('progress on a terminal', () => {
  it.each([40, 80, 100])('keeps every redrawn line under %i columns', (columns) => {
    const { stream, writes } = fakeTty(columns);
    const cell = 'A/ordered_dataset_features/tl_extract_dataset/resnet18';
    const bar = progress(
      [...Array(300)].map((_, i) => `${cell}${i % 83}`),
      stream,
    );
    bar.start(`${cell}0`, `${cell} time#2`);
    bar.finish(`${cell}0`, `${cell} time#2`, 'ok', 12.3);
    bar.close();
    const redrawn = writes
      .join('')
      .split('\r\x1b[2K')
      .flatMap((s) => s.split('\n'))
      .filter(Boolean);
    expect(redrawn.length).toBeGreaterThanOrEqual(2);
    for (const line of redrawn.filter((l) => l.startsWith('['))) expect([...line].length).toBeLessThan(columns);
    expect(redrawn.some((l) => l.endsWith('…'))).toBe(true);
  });

  it('keeps the ETA visible at 80 columns whatever the cell id (it came after the label and was cut)', () => {
    const { stream, writes } = fakeTty(80);
    const cell = 'A/ordered_dataset_features/tl_extract_dataset@2.35.4/resnet18_with_a_long_subject_name';
    const bar = progress([cell, cell, `${cell}x`], stream);
    bar.finish(cell, `${cell} time#0`, 'ok', 12.3);
    const last = writes.join('').split('\r\x1b[2K').filter(Boolean).at(-1)!;
    expect([...last].length).toBeLessThan(80);
    expect(last).toMatch(/^\[1\/3 processes, 0\/2 cells \| elapsed 0:\d\d, eta 0:2\d\] A\/ordered/);
  });
});

describe('progress with precision-driven sampling', () => {
  it('takes a skipped process out of the total, and counts its cell done once nothing of it is left', () => {
    const writes: string[] = [];
    const stream = { isTTY: false, write: (s: string) => writes.push(s) > 0 } as unknown as NodeJS.WriteStream;
    const bar = progress(['A', 'A', 'A', 'B'], stream);
    bar.finish('A', 'A time#0', 'ok', 1);
    bar.finish('A', 'A time#1', 'ok', 1);
    bar.skip('A');
    bar.finish('B', 'B time#0', 'ok', 1);
    expect(writes.at(-1)).toMatch(/^\[3\/3 processes, 2\/2 cells \| elapsed 0:\d\d, eta 0:00\] B time#0 ok/);
  });
});
