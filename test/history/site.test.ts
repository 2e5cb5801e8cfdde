// `benchgrid history` end to end: the CLI writes the site from results/<spec>/ directories; the site opens in
// headless Chromium with no console errors and no requests, draws a chart per cell, redraws on a new x axis,
// and lists the planted regression and nothing for the noise.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { CHROMIUM, chartStats, launchChromium, openReport } from '../../scripts/screenshots/browser.ts';
import { cli, tmpdir } from '../helpers.ts';
import { stepped, writeRuns } from '../fixtures/history/runs.ts';

const haveChromium = fs.existsSync(CHROMIUM);

function fixture(): { root: string; site: string } {
  const root = tmpdir('benchgrid-history-');
  writeRuns(
    path.join(root, 'results'),
    'planted',
    { 'A/single_module_output/tl_record/resnet18': stepped(20, 0.15) },
    42,
  );
  writeRuns(
    path.join(root, 'results'),
    'noise',
    {
      'A/single_module_output/hooks/resnet18': stepped(10, 0),
      'A/c/tl_record@2.35.4/resnet18': stepped(30, 0),
      'A/c/tl_record@2.36.1/resnet18': stepped(30, 0),
    },
    9,
  );
  return { root, site: path.join(root, 'site') };
}

describe('benchgrid history', () => {
  it('writes index.html and a copy of each run report, and says what it found', async () => {
    const { root, site } = fixture();
    const r = await cli(['history', 'results/planted', 'results/noise', '--out', 'site'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /wrote site\/index\.html: 24 run\(s\), 3 cell\(s\), 1 regression\(s\), 0 improvement\(s\)/,
    );
    const html = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
    expect(html).toContain('Content-Security-Policy');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    expect(fs.readdirSync(path.join(site, 'runs'))).toHaveLength(24);
    // The reports were rendered for runs without one, and the links point at them.
    const links = [...html.matchAll(/href="(runs\/[^"]+)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThanOrEqual(24);
    for (const l of links) expect(fs.existsSync(path.join(site, l)), l).toBe(true);
  });

  it('keeps markup in a results file inert: a hostile tool version is escaped in the table and the inlined data', async () => {
    const root = tmpdir('benchgrid-history-');
    const [dir] = writeRuns(path.join(root, 'results'), 'hostile', { 'A/c/tl_record/resnet18': [20] }, 1);
    const file = path.join(dir, 'results.json');
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    const evil = '</script><script>alert(1)</script><img src=x onerror=alert(2)>';
    json.resnet18.groups['A/c/tl_record/resnet18'].tool_version = evil;
    fs.writeFileSync(file, JSON.stringify(json));
    const r = await cli(['history', 'results', '--out', 'site'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    const html = fs.readFileSync(path.join(root, 'site', 'index.html'), 'utf8');
    expect(html).not.toContain(evil);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(2)&gt;');
  });

  it('refuses a directory with no runs, with exit code 2', async () => {
    const r = await cli(['history', tmpdir(), '--out', path.join(tmpdir(), 'site')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no runs \(a directory with results\.json\) under/);
  });
});

describe.skipIf(!haveChromium)('the history site in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens with no console errors and no requests, a chart per cell, and the x axis can be switched', async () => {
    const { root, site } = fixture();
    expect((await cli(['history', 'results', '--out', 'site'], { cwd: root })).code).toBe(0);
    const opened = await openReport(browser, path.join(site, 'index.html'));
    try {
      const charts = await chartStats(opened.page);
      expect(charts).toHaveLength(3);
      for (const c of charts) {
        expect(c.chart).toBe(true);
        expect(c.painted, c.id).toBeGreaterThan(1000);
      }
      const regressions = (await opened.page.evaluate(
        `[...document.querySelectorAll('tr.regression')].map((tr) => tr.textContent)`,
      )) as string[];
      expect(regressions).toHaveLength(1);
      expect(regressions[0]).toContain('A/single_module_output/tl_record/resnet18');
      expect(regressions[0]).toContain('planted');
      await opened.page.selectOption('#x-axis', 'version');
      expect(await opened.page.evaluate(`document.documentElement.getAttribute('data-x-axis')`)).toBe('version');
      expect(await opened.page.evaluate(`document.documentElement.getAttribute('data-charts-drawn')`)).toBe('3');
      await opened.page.selectOption('#x-axis', 'revision');
      expect((await chartStats(opened.page)).every((c) => c.chart)).toBe(true);
      expect(opened.consoleErrors).toEqual([]);
      expect(opened.pageErrors).toEqual([]);
      expect(opened.blocked).toEqual([]);
    } finally {
      await opened.close();
    }
  });
});
