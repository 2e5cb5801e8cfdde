// Growth over swept subjects on the HTML report: a log-log chart and the table per family, escaped; nothing without sweeps.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { renderHtml } from '../../src/report/html.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { growthResultsJson } from './growth-results.ts';
import { tinyResultsJson } from './tiny-results.ts';

const growthSection = (html: string) => html.slice(html.indexOf('<section class="page-section" id="growth">'), html.indexOf('</section>', html.indexOf('id="growth"')));

describe('growth on the HTML report', () => {
  it('draws a chart per family, a line and a band per tool, then the table of x raw, exponents and verdicts', () => {
    const section = growthSection(renderHtml(reportInput(fromJson(growthResultsJson()), null), ''));
    expect(section).toContain('<h4>tiny over seq (16-256), A / single_module_output</h4>');
    expect(section.match(/<svg class="growth-chart"/g)).toHaveLength(1);
    expect(section.match(/<polyline /g)).toHaveLength(3);
    expect(section.match(/<polygon /g)).toHaveLength(3);
    expect(section).toContain('<th>seq=16</th><th>seq=64</th><th>seq=256</th>');
    expect(section).toContain('<td>hooks</td><td>0.66 ms, 4.13x unpaired</td>');
    expect(section).toContain('<td>constant</td>');
    expect(section).toContain('<td>grows like the forward</td>');
    // Every point is on the chart: no coordinate is NaN or outside the box.
    expect(section).not.toContain('NaN');
  });

  it('escapes names from the file', () => {
    const hostile = fromJson(JSON.parse(JSON.stringify(growthResultsJson()).replaceAll('tiny', 'ti<b>ny')));
    const section = growthSection(renderHtml(reportInput(hostile, null), ''));
    expect(section).toContain('ti&lt;b&gt;ny over seq');
    expect(section).not.toContain('<b>');
  });

  it('has no growth section for results without sweeps', () => {
    expect(renderHtml(reportInput(fromJson(tinyResultsJson()), null), '')).not.toContain('id="growth"');
  });
});
