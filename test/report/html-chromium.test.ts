// The HTML report in real headless Chromium: charts drawn, no console or page errors, no network at all.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { loadResults } from '../../src/results/load.ts';
import { CHROMIUM, chartStats, launchChromium, openReport } from '../../scripts/screenshots/browser.ts';
import { renderHtml } from '../../src/report/html.ts';
import { resolvePage, type ReportInput } from '../../src/report/page.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { PREDECESSOR_RESULTS, tmpdir } from '../helpers.ts';
import { fromJson } from '../../src/results/load.ts';
import { pairedTinyJson } from './paired-tiny.ts';
import { TINY_SPEC, writeTinyResults } from './tiny-results.ts';

const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`html-chromium.test.ts: SKIPPED, ${CHROMIUM} is not installed (apt-get install -y chromium).`);
}

describe.skipIf(!haveChromium)(
  `the HTML report in headless Chromium${haveChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`}`,
  () => {
    let browser: Browser;
    const dir = tmpdir('benchgrid-html-');

    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
    });

    async function check(name: string, input: ReportInput) {
      const file = path.join(dir, `${name}.html`);
      fs.writeFileSync(file, renderHtml(input));
      const opened = await openReport(browser, file);
      try {
        const charts = await chartStats(opened.page);
        const expected = resolvePage(input).sections.filter((s) => s.entries.some((e) => e.kind === 'measured')).length;
        const facts = (await opened.page.evaluate(`({
        drawn: document.documentElement.getAttribute('data-charts-drawn'),
        details: document.querySelectorAll('details').length,
        titled: [...document.querySelectorAll('table.matrix td.unsupported, table.matrix td.error')].every((td) => td.title.length > 0),
      })`)) as { drawn: string; details: number; titled: boolean };
        await opened.page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
        return { charts, expected, facts, opened };
      } finally {
        await opened.close();
      }
    }

    it('draws every chart of the seed (log scale across decades) with no console errors and no requests', async () => {
      const input = reportInput(loadResults(PREDECESSOR_RESULTS), null);
      const { charts, expected, facts, opened } = await check('seed', input);
      expect(expected).toBe(2);
      expect(charts.map((c) => ({ id: c.id, chart: c.chart, scale: c.scale }))).toEqual([
        { id: 'chart-0', chart: true, scale: 'logarithmic' },
        { id: 'chart-1', chart: true, scale: 'logarithmic' },
      ]);
      for (const c of charts) expect(c.painted, `${c.id} has painted pixels`).toBeGreaterThan(2000);
      expect(facts).toEqual({ drawn: '2', details: 83, titled: true });
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.pageErrors).toEqual([]);
      expect(opened.blocked).toEqual([]);
      expect(fs.statSync(path.join(dir, 'seed.png')).size).toBeGreaterThan(20_000);
    });

    it("draws a benchgrid results file's page chart, with raw samples, and escapes what it shows", async () => {
      const input = reportInput(loadResults(writeTinyResults(dir)), await loadSpecForReport(TINY_SPEC));
      const { charts, facts, opened } = await check('tiny', input);
      expect(charts).toHaveLength(1);
      expect(charts[0]).toMatchObject({ chart: true, scale: 'logarithmic' });
      expect(charts[0].painted).toBeGreaterThan(2000);
      expect(facts).toEqual({ drawn: '1', details: 7, titled: true });
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.pageErrors).toEqual([]);
      expect(opened.blocked).toEqual([]);
    });

    // Per forest canvas: its rows, and the share of the plot's height where the dashed line at 1.0x is painted
    // (a pixel row with an opaque pixel in the 3-pixel column at 1.0; the grid line there is drawn at 10% alpha,
    // so it does not count).
    const FOREST_FACTS = `({
    drawn: document.documentElement.getAttribute('data-forests-drawn'),
    firstCanvas: [...document.querySelectorAll('section.page-section')].map((s) => s.querySelector('canvas')?.id ?? null),
    forests: [...document.querySelectorAll('canvas.forest')].map((canvas) => {
      const chart = Chart.getChart(canvas);
      const area = chart.chartArea;
      const x = Math.round(chart.scales.x.getPixelForValue(1));
      const column = canvas.getContext('2d').getImageData(x - 1, area.top, 3, area.bottom - area.top).data;
      let lines = 0;
      for (let y = 0; y < column.length / 12; y++) if ([3, 7, 11].some((a) => column[y * 12 + a] > 128)) lines += 1;
      return { id: canvas.id, rows: chart.data.labels.length, scale: chart.scales.x.type, unity: lines / (area.bottom - area.top) };
    }),
  })`;

    it("leads a paired run's section with its forest plot of x raw: one row per paired tool, the line at 1.0x, each row's figures in its tooltip", async () => {
      for (const [name, spec, rows] of [
        ['paired', await loadSpecForReport(TINY_SPEC), 2],
        ['paired-generic', null, 3],
      ] as const) {
        const file = path.join(dir, `${name}.html`);
        fs.writeFileSync(file, renderHtml(reportInput(fromJson(pairedTinyJson(), 'results.json'), spec)));
        const opened = await openReport(browser, file);
        try {
          const charts = await chartStats(opened.page);
          const facts = (await opened.page.evaluate(FOREST_FACTS)) as {
            drawn: string;
            firstCanvas: (string | null)[];
            forests: { id: string; rows: number; scale: string; unity: number }[];
          };
          expect(
            charts.map((c) => c.id),
            name,
          ).toEqual(['forest-0', 'chart-0']);
          for (const c of charts) expect(c.painted, `${name}: ${c.id} has painted pixels`).toBeGreaterThan(2000);
          expect(facts.drawn).toBe('1');
          // The forest is the first thing drawn in the section; the import tax section has no chart.
          expect(facts.firstCanvas).toEqual(['forest-0']);
          expect(facts.forests).toMatchObject([{ id: 'forest-0', rows, scale: 'logarithmic' }]);
          expect(facts.forests[0].unity, `${name}: the dashed line at 1.0x`).toBeGreaterThan(0.3);
          expect(opened.consoleErrors).toEqual([]);
          expect(opened.pageErrors).toEqual([]);
          expect(opened.blocked).toEqual([]);
          await opened.page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
          // Anywhere on a row, the tooltip gives its figures: the x raw, the exactness, the work difference.
          const at = (await opened.page.evaluate(`(() => {
          const canvas = document.getElementById('forest-0');
          const point = Chart.getChart(canvas).getDatasetMeta(1).data[1];
          const box = canvas.getBoundingClientRect();
          return { x: box.left + point.x - 80, y: box.top + point.y };
        })()`)) as { x: number; y: number };
          await opened.page.mouse.move(at.x, at.y);
          const tooltip = await opened.page.evaluate(
            `Chart.getChart(document.getElementById('forest-0')).tooltip.body.map((b) => b.lines)`,
          );
          expect(tooltip, name).toEqual([
            [
              'x raw 480.00x (455.00-512.00)',
              'exactness: mismatch (max abs diff 0.5)',
              'work: differs (stops at the site)',
            ],
          ]);
        } finally {
          await opened.close();
        }
      }
    });

    it('blocks and reports a request the page would make, so the checks above mean something', async () => {
      const file = path.join(dir, 'leaky.html');
      fs.writeFileSync(file, '<!doctype html><title>x</title><img src="http://example.invalid/x.png">');
      const opened = await openReport(browser, file);
      try {
        expect(opened.blocked).toEqual(['http://example.invalid/x.png']);
      } finally {
        await opened.close();
      }
    });
  },
);
