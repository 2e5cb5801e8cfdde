// The HTML page leads each section with its forest plot of x raw: the data inlined as JSON, the canvas
// before the time chart's, the caption of what it leaves out; nothing of it for the seed, which has no x raw.
import { describe, expect, it } from 'vitest';
import { fromJson, loadResults } from '../../src/results/load.ts';
import { forestData, FOREST_SENTENCE } from '../../src/report/forest.ts';
import { renderHtml } from '../../src/report/html.ts';
import { resolvePage } from '../../src/report/page.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { PREDECESSOR_RESULTS } from '../helpers.ts';
import { pairedTinyJson } from './paired-tiny.ts';
import { TINY_SPEC, tinyResultsJson } from './tiny-results.ts';

/** The page's inlined data, read back as the page script reads it. */
function inlined(html: string): { charts: { canvas: string }[]; forests: unknown[] } {
  return JSON.parse(/<script type="application\/json" id="benchgrid-data">([^<]*)<\/script>/.exec(html)![1]);
}

describe('the forest plot of the HTML page', () => {
  it('is inlined as the builder made it, and its canvas comes before the time chart in the section', async () => {
    const input = reportInput(fromJson(pairedTinyJson(), 'results.json'), await loadSpecForReport(TINY_SPEC));
    const html = renderHtml(input, '/* no chart library */');
    const section = resolvePage(input).sections[0];
    expect(inlined(html).forests).toEqual([forestData(section, 0, 'Tiny <ResNet>, CPU, ').chart]);
    expect(inlined(html).charts.map((c) => c.canvas)).toEqual(['chart-0']);
    const forest = html.indexOf('<canvas id="forest-0"');
    expect(forest).toBeGreaterThan(html.indexOf('<h3>Tiny &lt;ResNet&gt;, CPU page</h3>'));
    expect(forest).toBeLessThan(html.indexOf('<canvas id="chart-0"'));
    expect(html).toContain(
      `${FOREST_SENTENCE.replace(/'/g, '&#39;')} Left out of the plot (3 of 5 cells): failed (1); not run (1); not measured (1).</p>`,
    );
  });

  it('says why a section of a file without paired timing has none', async () => {
    const input = reportInput(fromJson(tinyResultsJson(), 'results.json'), await loadSpecForReport(TINY_SPEC));
    const html = renderHtml(input, '');
    expect(inlined(html).forests).toEqual([]);
    expect(html).not.toContain('<canvas id="forest-');
    expect(html).toContain(
      '<p class="note">No x raw to plot: no cell of this section has a paired ratio to the plain forward. Left out of the plot (5 of 5 cells): unpaired, so without an interval (2); failed (1); not run (1); not measured (1).</p>',
    );
  });

  it("is absent from the seed's page, whose tables have no x raw column either", () => {
    const html = renderHtml(reportInput(loadResults(PREDECESSOR_RESULTS), null), '');
    expect(inlined(html).forests).toEqual([]);
    expect(html).not.toContain('x raw to plot');
  });
});
