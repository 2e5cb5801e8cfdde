// gridLines draws what cli-table3 draws (src/util/grid-lines.ts): fit-table.ts switches between them by size,
// so a grid must look the same either side of the switch, against cli-table3 styled as fit-table.ts styles it.
import { describe, expect, it } from 'vitest';
import { gridLines, type GridSpec } from '../../src/util/grid-lines.ts';
import { CLI_TABLE_CELLS, cliTable3, fitTable } from '../../src/util/fit-table.ts';

const head = ['', 'raw', 'a centred heading', 'x'];
const rows = Array.from({ length: 40 }, (_, i) => [
  `contract_${i}`,
  `${(i * 1.37).toFixed(2)} ms`,
  i % 3 ? '\x1b[32m1.02x\x1b[39m' : 'not run (a)',
  i % 5 ? 'é' : '',
]);

describe('gridLines draws the lines cli-table3 draws', () => {
  it.each(
    [false, true].flatMap((color) =>
      [false, true].flatMap((compact) =>
        [undefined, ['left', 'right', 'center', 'right'] as GridSpec['colAligns']].map((colAligns) => ({
          color,
          compact,
          colAligns,
        })),
      ),
    ),
  )('%o', (o) => {
    const spec: GridSpec = { head, rows, ...o };
    expect(gridLines(spec)).toBe(cliTable3(spec));
  });

  it('a grid past cli-table3 size is still fitted to the width: keys, a shorter first column, parts', () => {
    const many = Array.from({ length: CLI_TABLE_CELLS }, (_, i) => [
      `A/a_rather_long_contract_name_${i}/tool/subject`,
      '1.00 ms',
      '1.02 ms',
      '+2.0%',
      'within noise',
    ]);
    const lines = fitTable(
      { head: ['cell', 'before', 'after', 'change_of_the_median', 'label'], rows: many, color: false, compact: true },
      50,
    );
    expect(lines.every((l) => [...l].length <= 50)).toBe(true);
    expect(lines.filter((l) => /^│ A\//.test(l)).length).toBe(2 * CLI_TABLE_CELLS);
  });
});
