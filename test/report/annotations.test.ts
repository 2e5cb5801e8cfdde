// Work differences, another torch and adapter notes appear next to the figure in every output format.
import { describe, expect, it } from 'vitest';
import { compareResults } from '../../src/compare/compute.ts';
import { renderMarkdown as compareMarkdown } from '../../src/compare/render-markdown.ts';
import { cellAnnotations } from '../../src/results/annotations.ts';
import { loadResults } from '../../src/results/load.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { renderTable } from '../../src/report/table.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { tmpdir, write } from '../helpers.ts';
import { TINY_SPEC, tinyResultsJson } from './tiny-results.ts';

const NNSIGHT = 'A/single_module_output/nnsight/resnet18';
const WORDS = 'work: differs (stops at the site); on torch 2.0.1; note: saves every gradient';

function marked() {
  const json = tinyResultsJson() as { resnet18: { groups: Record<string, Record<string, unknown>> } };
  Object.assign(json.resnet18.groups[NNSIGHT], {
    runtime: { environment: 'thingsvision', python: '3.10.14', torch: '2.0.1', torchvision: '0.15.2' },
    work: {
      required: { forwards: 1, parameter_grads: false },
      witnesses: [{ forwards: 0, parameter_grads: false, result_bytes: 8 }],
      differs: ['stops at the site'],
    },
    notes: ['saves every gradient'],
  });
  return loadResults(write(tmpdir(), 'results.json', JSON.stringify(json)));
}

describe('a marked cell in every format', async () => {
  const results = marked();
  const spec = (await loadSpec(TINY_SPEC)).spec!;
  const input = { results, spec, libraries: { nnsight: 'nnsight' } };

  it('says what differs, in order: work, torch, notes', () => {
    expect(cellAnnotations(results.cells.find((c) => c.id === NNSIGHT)!, results)).toEqual(WORDS.split('; '));
  });

  it('follows the figure on the markdown page and in the HTML page, and is keyed under the grids', () => {
    expect(renderMarkdown(input)).toContain(`| nnsight 0.8.1 | 1.12 s (1.00 s to 1.23 s); ${WORDS} |`);
    const html = renderHtml(input);
    expect(html).toContain(`1.12 s (1.00 s to 1.23 s); ${WORDS}`);
    expect(renderTable(input, false)).toMatch(
      new RegExp(`1\\.12 s ! \\((\\w)\\)[\\s\\S]*\\(\\1\\) ${WORDS.replace(/[()]/g, '\\$&')}`),
    );
  });

  it('is in the JSON cell, and listed by compare on the side that has it', () => {
    const cell = JSON.parse(JSON.stringify(results)).cells.find((c: { id: string }) => c.id === NNSIGHT);
    expect(cell.work.differs).toEqual(['stops at the site']);
    const plain = loadResults(write(tmpdir(), 'plain.json', JSON.stringify(tinyResultsJson())));
    const comparison = compareResults(plain, results, { before: 'plain.json', after: 'marked.json' });
    const side = comparison.cells.find((c) => c.id === NNSIGHT)!;
    expect(side.before?.annotations).toBeUndefined();
    expect(side.after?.annotations).toEqual(WORDS.split('; '));
    // The markdown sink writes the cell id as a code span.
    expect(compareMarkdown(comparison)).toContain(`- \`${NNSIGHT}\`: after: ${WORDS}`);
  });

  it('leaves unmarked cells as they were', () => {
    const plain = loadResults(write(tmpdir(), 'plain.json', JSON.stringify(tinyResultsJson())));
    expect(renderMarkdown({ ...input, results: plain })).toContain('| nnsight 0.8.1 | 1.12 s (1.00 s to 1.23 s) |');
  });
});
