// Regenerates docs/history-screenshot.png: a history site in headless Chromium (docs/versions.md).
// Usage: node bin/node-ts.js scripts/screenshots/history.ts RESULTS_DIR... [--out PNG] [--axis date|revision|version] [--focus TEXT]
// --focus keeps only the cells whose id contains TEXT on the picture (the page itself keeps them all).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import { REPO_ROOT } from '../../src/repository.ts';
import { launchChromium, openReport } from './browser.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, axis: { type: 'string' }, focus: { type: 'string' } },
});
const out = values.out ?? path.join(REPO_ROOT, 'docs/history-screenshot.png');
const site = fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-history-shot-'));
await execa(process.execPath, [path.join(REPO_ROOT, 'bin/benchgrid.js'), 'history', ...positionals, '--out', site], {
  stdio: 'inherit',
});
const browser = await launchChromium();
try {
  const opened = await openReport(browser, path.join(site, 'index.html'), { width: 1280, height: 1400 });
  if (values.axis) await opened.page.selectOption('#x-axis', values.axis);
  if (values.focus) {
    await opened.page.evaluate(
      `[...document.querySelectorAll('section.series')].forEach((s) => { if (!s.querySelector('h3').textContent.includes(${JSON.stringify(values.focus)})) s.style.display = 'none'; })`,
    );
  }
  const problems = [
    ...opened.consoleErrors,
    ...opened.pageErrors,
    ...opened.blocked.map((u) => `blocked request ${u}`),
  ];
  if (problems.length) throw new Error(`the site did not open cleanly:\n${problems.join('\n')}`);
  await opened.page.screenshot({ path: out, fullPage: true });
  await opened.close();
} finally {
  await browser.close();
}
process.stderr.write(`wrote ${path.relative(process.cwd(), out) || out}\n`);
