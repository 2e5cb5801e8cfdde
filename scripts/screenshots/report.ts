// Regenerates docs/report-screenshot.png: the seed's HTML report in headless Chromium.
// Usage: node bin/node-ts.js scripts/screenshots/report.ts [RESULTS] [--spec SPEC] [--out PNG]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../src/repository.ts';
import { loadResults } from '../../src/results/load.ts';
import { launchChromium, openReport } from './browser.ts';
import { renderHtml } from '../../src/report/html.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { spec: { type: 'string' }, out: { type: 'string' } },
});
const results = positionals[0] ?? path.join(REPO_ROOT, 'reference/resnet18_gpu.results.json');
const specFile = values.spec ?? path.join(REPO_ROOT, 'specs/resnet18_gpu.yaml');
const out = values.out ?? path.join(REPO_ROOT, 'docs/report-screenshot.png');

const html = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'benchgrid-shot-')), 'report.html');
fs.writeFileSync(html, renderHtml(reportInput(loadResults(results), await loadSpecForReport(specFile))));
const browser = await launchChromium();
try {
  const opened = await openReport(browser, html, { width: 1280, height: 1500 });
  const problems = [
    ...opened.consoleErrors,
    ...opened.pageErrors,
    ...opened.blocked.map((u) => `blocked request ${u}`),
  ];
  if (problems.length) throw new Error(`the report did not open cleanly:\n${problems.join('\n')}`);
  await opened.page.screenshot({ path: out });
  await opened.close();
} finally {
  await browser.close();
}
process.stderr.write(`wrote ${path.relative(process.cwd(), out) || out}\n`);
