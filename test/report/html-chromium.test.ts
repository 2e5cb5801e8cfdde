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
import { TINY_SPEC, writeTinyResults } from './tiny-results.ts';

const haveChromium = fs.existsSync(CHROMIUM);
if (!haveChromium) {
  console.warn(`html-chromium.test.ts: SKIPPED, ${CHROMIUM} is not installed (apt-get install -y chromium).`);
}

describe.skipIf(!haveChromium)(`the HTML report in headless Chromium${haveChromium ? '' : ` (skipped: ${CHROMIUM} is not installed)`}`, () => {
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
      const facts = await opened.page.evaluate(`({
        drawn: document.documentElement.getAttribute('data-charts-drawn'),
        details: document.querySelectorAll('details').length,
        titled: [...document.querySelectorAll('table.matrix td.unsupported, table.matrix td.error')].every((td) => td.title.length > 0),
      })`) as { drawn: string; details: number; titled: boolean };
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
});
