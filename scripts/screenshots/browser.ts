// Opens an HTML report in Debian's headless Chromium (playwright-core drives it): for tests and screenshots.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`); playwright's own browser downloads are not used. */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags for a headless run as root in a container, with every background network feature off. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What opening a report showed: console errors, page errors and every request other than the file itself (all blocked). */
export interface Opened {
  page: Page;
  consoleErrors: string[];
  pageErrors: string[];
  blocked: string[];
  close: () => Promise<void>;
}

/** Launches Chromium (playwright-core is a dev dependency, imported only here). */
export async function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing; install it with: apt-get install -y chromium`);
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** Opens a report file; any request other than the file's own URL is recorded and aborted. */
export async function openReport(
  browser: Browser,
  file: string,
  viewport = { width: 1280, height: 900 },
): Promise<Opened> {
  const url = pathToFileURL(file).href;
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const pageErrors: string[] = [];
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    blocked.push(route.request().url());
    return route.abort();
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, consoleErrors, pageErrors, blocked, close: () => context.close() };
}

/** Per chart canvas: whether Chart.js owns it, its x scale's type, and how many of its pixels are painted. */
export async function chartStats(
  page: Page,
): Promise<{ id: string; chart: boolean; scale: string | null; painted: number }[]> {
  // A string, because this code runs in the page and the project compiles without DOM types.
  return page.evaluate(`[...document.querySelectorAll('canvas.chart')].map((canvas) => {
    const chart = window.Chart ? window.Chart.getChart(canvas) : undefined;
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted += 1;
    return { id: canvas.id, chart: Boolean(chart), scale: chart ? chart.scales.x.type : null, painted };
  })`);
}
