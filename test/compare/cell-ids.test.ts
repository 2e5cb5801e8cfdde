// The compare table's ids: what every row shares is said once, then the subject and the group are
// shortened before the contract and the tool, which are what a reader of the table looks for.
import { describe, expect, it } from 'vitest';
import { MIN_PART, roomForIds, shortIds } from '../../src/compare/cell-ids.ts';
import { visibleLength } from '../../src/util/width.ts';

const ids = [
  'A/single_module_output/raw/resnet18',
  'A/single_module_output/nnsight/resnet18',
  'A/single_module_input/raw/resnet18',
];

/** The contracts and tools of the two-row tables below, which shortening keeps whole. */
const KEPT = ['single_module_output/raw', 'single_module_input/nnsight'];

/**
 * shortIds of two rows with KEPT's contracts and tools, at `width`: checks that every id fits and keeps its
 * contract and tool whole, the contract being its part `at` (0 once the group is left out).
 */
function shortenedKeeping(rows: string[], width: number, at: number): ReturnType<typeof shortIds> {
  const s = shortIds(rows, width);
  const kept = s.ids.map((id) => {
    const [contract, tool] = id.split('/').slice(at);
    return `${contract}/${tool}`;
  });
  expect(kept).toEqual(KEPT);
  expect(Math.max(...s.ids.map(visibleLength))).toBeLessThanOrEqual(width);
  return s;
}

describe('shortIds', () => {
  it('leaves ids that fit alone, whatever they share', () => {
    expect(shortIds(ids, 100)).toEqual({ ids, head: 'cell', note: null });
  });

  it('leaves out the parts every row shares and says which, once', () => {
    const s = shortIds(ids, 30);
    expect(s.ids).toEqual(['single_module_output/raw', 'single_module_output/nnsight', 'single_module_input/raw']);
    expect(s.head).toBe('contract/tool');
    expect(s.note).toBe('On every row: group A, subject resnet18.');
  });

  it('then shortens the subject before the contract and the tool, keeping different subjects apart', () => {
    const rows = [
      'A/single_module_output/raw/vit_base_patch16_224',
      'A/single_module_input/nnsight/vit_large_patch16_224',
    ];
    const s = shortenedKeeping(rows, 40, 0);
    const subjects = s.ids.map((id) => id.split('/')[2]);
    expect(subjects.every((x) => x.includes('…'))).toBe(true);
    expect(new Set(subjects).size).toBe(2);
    expect(s.note).toBe(
      'On every row: group A. Names with … are shortened in the middle; --format json has the full ids.',
    );
  });

  it('shortens the group next, and the contract and the tool only when that is not enough', () => {
    const rows = [
      'a_long_group_name/single_module_output/raw/resnet18_wide',
      'other_long_group_x/single_module_input/nnsight/resnet50_deep',
    ];
    shortenedKeeping(rows, 50, 1);
    const all = shortIds(rows, 30);
    expect(all.ids[0].split('/')[1]).toContain('…');
    // No part goes below MIN_PART, so the ids may stay over a limit this small.
    for (const part of all.ids.flatMap((id) => id.split('/')))
      expect(visibleLength(part)).toBeGreaterThanOrEqual(Math.min(MIN_PART, part.length));
  });

  it('keeps the contract and the tool of a single row, leaving out only its group and subject', () => {
    expect(shortIds(['A/single_module_output/raw/resnet18'], 30)).toMatchObject({
      ids: ['single_module_output/raw'],
      head: 'contract/tool',
    });
  });

  it('counts wide characters as two columns and never splits one', () => {
    const rows = ['A/c/raw/模型名称非常长的主题🙂', 'A/c/hooks/模型名称非常长的主题二🙂'];
    const s = shortIds(rows, 18);
    for (const id of s.ids) expect(visibleLength(id)).toBeLessThanOrEqual(18);
    // A split emoji would leave half a surrogate pair, which UTF-8 cannot carry.
    for (const id of s.ids) expect(Buffer.from(id).toString()).toBe(id);
  });

  it('leaves ids of another shape unchanged', () => {
    expect(shortIds(['one/two', 'three/four/five/six'], 5).ids).toEqual(['one/two', 'three/four/five/six']);
  });
});

describe('roomForIds', () => {
  it('gives the first column what the other columns of a compact grid leave, never under a third of the width', () => {
    // Other columns: "before" (6) and "12.30 ms" (8): 6+3 + 8+3 + 1 closing border = 21; the first takes 3 more.
    expect(roomForIds(['cell', 'before', 'after'], [['x', '1 ms', '12.30 ms']], 100)).toBe(100 - 21 - 3);
    expect(roomForIds(['cell', 'x'.repeat(90)], [['a', 'b']], 100)).toBe(33);
  });
});
