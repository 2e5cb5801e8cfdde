// Growth over swept subjects on the HTML report: per family an x raw chart with its intervals, a time chart and a
// memory chart, log-log, then the table, escaped; nothing without sweeps.
import { describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { renderHtml } from '../../src/report/html.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { pairedRecord } from '../helpers/paired-record.ts';
import { growthResultsJson, SEQS, sweptId } from './growth-results.ts';
import { tinyResultsJson } from './tiny-results.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path

const growthSection = (html: string) =>
  html.slice(
    html.indexOf('<section class="page-section" id="growth">'),
    html.indexOf('</section>', html.indexOf('id="growth"')),
  );

describe('growth on the HTML report', () => {
  it('draws an x raw, a time and a memory chart per family, a line and a band per tool, then the table of x raw, exponents, verdicts and memory', () => {
    const section = growthSection(renderHtml(reportInput(fromJson(growthResultsJson()), null), ''));
    expect(section).toContain('<h4>tiny over seq (16-256), A / single_module_output</h4>');
    // x raw first (no line for raw, which is 1.00x by definition, and the dashed line at 1.00x), then the time.
    expect(section.indexOf('<svg class="growth-ratio-chart"')).toBeLessThan(
      section.indexOf('<svg class="growth-chart"'),
    );
    const ratio = svg(section, 'growth-ratio-chart');
    expect(
      [ratio.match(/<polyline /g), ratio.match(/<polygon /g), ratio.match(/<line class="rule"/g)].map((m) => m?.length),
    ).toEqual([2, 2, 1]);
    expect(ratio).toContain('<title>hooks, seq=16: 4.13x unpaired</title>');
    const time = svg(section, 'growth-chart');
    expect([time.match(/<polyline /g), time.match(/<polygon /g)].map((m) => m?.length)).toEqual([3, 3]);
    // One memory process per cell: a line per tool, and no band (there is no spread to draw).
    const memory = svg(section, 'growth-memory-chart');
    expect([memory.match(/<polyline /g)?.length, memory.match(/<polygon /g)]).toEqual([3, null]);
    expect(memory).toContain('<title>nnsight, seq=256: peak RSS 336.0 MiB</title>');
    // The table: a column per point, x raw beside each time, the exponents' verdicts and the memory per point.
    const table = [
      '<th>seq=16</th><th>seq=64</th><th>seq=256</th>',
      '<th>Peak RSS (MiB)</th>',
      '<td>hooks</td><td>0.66 ms, 4.13x unpaired</td>',
      '<td>321.0 / 324.0 / 336.0</td>',
      '<td>constant</td>',
      '<td>grows like the forward</td>',
    ];
    for (const html of table) expect(section).toContain(html);
    // Every point is on the chart: no coordinate is NaN or outside the box.
    expect(section).not.toContain('NaN');
  });

  it('bands each x raw with its paired 95% interval, the point inside it', () => {
    const raw = growthResultsJson() as Json;
    for (const seq of SEQS) {
      const hooks = raw[sweptId(seq)].groups[`A/single_module_output/hooks/${sweptId(seq)}`];
      hooks.paired = pairedRecord(hooks.samples_ms[0], { ratio: 1.5, ci95: [1.4, 1.6], published: [1.3, 1.8] });
    }
    const ratio = svg(growthSection(renderHtml(reportInput(fromJson(raw), null), '')), 'growth-ratio-chart');
    expect(ratio).toContain('<title>hooks, seq=64: 1.50x (1.30-1.80)</title>');
    // hooks' band (the first polygon) runs along the interval's top, then back along its bottom; each point between.
    const band = ratio
      .match(/<polygon points="([^"]+)"/)![1]
      .split(' ')
      .map((p) => p.split(',').map(Number));
    const dots = [...ratio.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)"/g)]
      .slice(0, SEQS.length)
      .map((m) => [Number(m[1]), Number(m[2])]);
    expect(band).toHaveLength(2 * SEQS.length);
    dots.forEach(([x, y], i) => {
      const [top, bottom] = [band[i], band[band.length - 1 - i]];
      expect([top[0], bottom[0]]).toEqual([x, x]);
      // SVG y grows downwards: the interval's top (1.80x) is above the point (1.50x), its bottom (1.30x) below.
      expect(top[1]).toBeLessThan(y);
      expect(bottom[1]).toBeGreaterThan(y);
      // On a log scale the point sits where log 1.5 lies between log 1.3 and log 1.8.
      expect((bottom[1] - y) / (bottom[1] - top[1])).toBeCloseTo(Math.log(1.5 / 1.3) / Math.log(1.8 / 1.3), 1);
    });
  });

  it("charts the GPU allocator's peak where the cells recorded one, with the band of the memory processes", () => {
    const raw = growthResultsJson() as Json;
    for (const seq of SEQS) {
      for (const cell of Object.values(raw[sweptId(seq)].groups) as Json[])
        cell.memory = {
          peak_rss_bytes: [2e9, 2e9],
          cuda_peak_allocated_bytes: [seq * 1024 * 1024, 2 * seq * 1024 * 1024],
        };
    }
    const section = growthSection(renderHtml(reportInput(fromJson(raw), null), ''));
    const memory = svg(section, 'growth-memory-chart');
    expect(memory).toContain('aria-label="peak CUDA allocated against seq');
    expect(memory.match(/<polygon /g)).toHaveLength(3);
    expect(memory).toContain('<title>raw, seq=256: peak CUDA allocated 512.0 MiB</title>');
    expect(section).toContain('<th>Peak CUDA allocated (MiB)</th>');
    expect(section).toContain('<td>32.0 / 128.0 / 512.0</td>');
  });

  it('draws no memory chart and no memory column where no memory process ran', () => {
    const raw = growthResultsJson() as Json;
    for (const seq of SEQS) for (const cell of Object.values(raw[sweptId(seq)].groups) as Json[]) cell.memory = null;
    const section = growthSection(renderHtml(reportInput(fromJson(raw), null), ''));
    expect(section).not.toContain('growth-memory-chart');
    expect(section).not.toContain('Peak RSS');
    expect(section).toContain('<svg class="growth-ratio-chart"');
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

/** The svg of this class in the section. */
function svg(section: string, kind: string): string {
  const start = section.indexOf(`<svg class="${kind}"`);
  expect(start).toBeGreaterThanOrEqual(0);
  return section.slice(start, section.indexOf('</svg>', start));
}
