// benchgrid's own results files (format_version 1) render in every format, with and without a spec.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromJson, loadResults } from '../../src/results/load.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { resolvePage } from '../../src/report/page.ts';
import { reportInput, writeRunReports } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { cli, tmpdir } from '../helpers.ts';
import { TINY_SPEC, tinyResultsJson, writeTinyResults } from './tiny-results.ts';

describe('a benchgrid results file', () => {
  const dir = tmpdir('benchgrid-report-');
  const file = writeTinyResults(dir);

  it('renders the page rows: measured with n, failing with its explanation, not run, and not measured', async () => {
    const r = await cli(['report', file, '--spec', TINY_SPEC, '--format', 'markdown']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    // Text from the spec and the results goes through the markdown sink: markup is shown, never obeyed.
    expect(lines[0]).toBe('# Tiny &lt;ResNet&gt;, CPU');
    expect(lines).toContain('## Tiny &lt;ResNet&gt;, CPU page');
    // A benchgrid file adds the ratio to raw and the exactness; this one has no paired timing, so every ratio
    // says it is unpaired. The reference tool's cell carries no verdict (as in the seed), so its column is empty.
    // The import tax is its own column beside x raw, empty where the cell has none (an unpaired file).
    expect(lines).toContain(
      '| Workload | Tool | Median (min to max) | x raw (95% CI) | Import tax (95% CI) | Exactness |',
    );
    expect(lines).toContain(
      "| Tiny &lt;ResNet&gt;, CPU, one module's output, n=2 processes | forward hook | 2.60 ms (2.50 ms to 2.70 ms) | 1.18x unpaired |  |  |",
    );
    // tool_version of the cell fills {version}; 999.996 ms rounds up to one second and reads as seconds.
    expect(lines).toContain(
      "| Tiny &lt;ResNet&gt;, CPU, one module's output, n=2 processes | nnsight 0.8.1 | 1.12 s (1.00 s to 1.23 s) | 507.84x unpaired |  | mismatch (max abs diff 0.5) |",
    );
    expect(lines).toContain(
      "| Tiny &lt;ResNet&gt;, CPU, one module's output | torchvision fx | not measured |  |  |  |",
    );
    expect(lines).toContain(
      '| Tiny &lt;ResNet&gt;, CPU, one module replaced by zeros | nnsight 0.8.1 | fails: inputs end up on two devices |  |  |  |',
    );
    expect(lines).toContain(
      '| Tiny &lt;ResNet&gt;, CPU, one module replaced by zeros | torchvision fx | not run: a feature extractor &lt;script&gt;alert(1)&lt;/script&gt; reads \\| outputs |  |  |  |',
    );
    expect(lines).toContain(
      "Unpaired ratios (the ratio of two sets of processes' medians, not timed together): no paired timing in this results file (2).",
    );
    expect(r.stderr).toContain('1 page entry has no cell');
    expect(r.stderr).toContain('A/single_module_output/tv_fx/resnet18');
  });

  it('puts every other cell in the appendix', async () => {
    const input = reportInput(loadResults(file), await loadSpecForReport(TINY_SPEC));
    expect(resolvePage(input).appendix.map((c) => c.id)).toEqual([
      'A/single_module_output/raw/resnet18',
      'A/replacement_edit/raw/resnet18',
      'A/replacement_edit/hooks/resnet18',
    ]);
    const md = renderMarkdown(input);
    expect(md).toContain(
      '| `A/single_module_output/raw/resnet18` | ok | 2.20 ms (2.10 ms to 2.30 ms) | not compared |  |',
    );
    expect(md).toContain('| `A/replacement_edit/raw/resnet18` | error |  |  | ValueError: boom |');
    expect(md).toContain('The run did not finish');
  });

  it("writes an appendix cell's exactness as the page does: a decoder's difference, top-1 agreement and where tokens part", async () => {
    // A cell the page does not show is still read by what it got wrong, not by its verdict alone.
    const json = tinyResultsJson() as { resnet18: { groups: Record<string, Record<string, unknown>> } };
    Object.assign(json.resnet18.groups['A/replacement_edit/hooks/resnet18'], {
      exact: 'mismatch',
      max_abs_diff: 17292,
      agreement: { top1_agreement: 0.0625, first_divergence: 1 },
    });
    const input = reportInput(fromJson(json), await loadSpecForReport(TINY_SPEC));
    const words = 'mismatch (max abs diff 17292; tokens part from new token 2, top-1 0.06)';
    expect(renderMarkdown(input)).toContain(
      `| \`A/replacement_edit/hooks/resnet18\` | ok | 3.25 ms (3.10 ms to 3.40 ms) | ${words} |`,
    );
    expect(renderHtml(input)).toContain(`<td>${words}</td>`);
  });

  it('draws the grid with marks, keys and reasons', async () => {
    const r = await cli(['report', file, '--spec', TINY_SPEC, '--format', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('A: peers / ResNet-18: 4 ok, 2 failed, 1 not run');
    expect(r.stdout).toMatch(/│ single_module_output +│ 2\.20 ms +│ 2\.60 ms +│ 1\.12 s ! +│ +│/);
    expect(r.stdout).toMatch(/│ replacement_edit +│ error \(a\) +│ 3\.25 ms +│ error \(b\) +│ \(c\) +│/);
    expect(r.stdout).toContain('  (a) failed: ValueError: boom');
    expect(r.stdout).toContain('  (b) failed: RuntimeError: found two devices, cuda:0 and cpu');
    expect(r.stdout).toContain('  (c) a feature extractor <script>alert(1)</script> reads | outputs');
  });

  it('prints the loaded model as JSON', async () => {
    const r = await cli(['report', file, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(fromJson(tinyResultsJson()))));
  });

  it('writes HTML to --out with raw samples behind disclosures and every text escaped', async () => {
    const out = path.join(dir, 'out/report.html');
    const r = await cli(['report', file, '--spec', TINY_SPEC, '--format', 'html', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const html = fs.readFileSync(out, 'utf8');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('a feature extractor &lt;script&gt;alert(1)&lt;/script&gt; reads | outputs');
    expect(html).toContain('<h1>Tiny &lt;ResNet&gt;, CPU</h1>');
    expect(html).toMatch(
      /<details><summary><code>A\/single_module_output\/hooks\/resnet18<\/code> ok, 2\.60 ms \(2\.50 ms to 2\.70 ms\), 6 samples<\/summary>/,
    );
    expect(html).toContain('process 1: 2.700, 2.600, 2.800 (ms)');
    expect(html).toContain('title="ValueError: boom"');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(html).toContain('Chart.js v4');
  });

  it('renders without a spec in every format', async () => {
    for (const format of ['table', 'markdown', 'html', 'json']) {
      const r = await cli(['report', file, '--format', format]);
      expect({ format, code: r.code, stderr: r.stderr }).toEqual({ format, code: 0, stderr: '' });
      expect(r.stdout.length).toBeGreaterThan(100);
    }
  });

  it('writes report.md and report.html into a run directory', () => {
    const runDir = tmpdir('benchgrid-run-');
    const written = writeRunReports(runDir, loadResults(file), undefined);
    expect(written).toEqual({ markdown: path.join(runDir, 'report.md'), html: path.join(runDir, 'report.html') });
    expect(fs.readFileSync(written.markdown, 'utf8')).toContain('## A / resnet18');
    expect(fs.readFileSync(written.html, 'utf8')).toContain('<canvas id="chart-0"');
  });

  it('renders a chart-library stub when one is given, so HTML stays a pure function of its inputs', async () => {
    const input = reportInput(loadResults(file), await loadSpecForReport(TINY_SPEC));
    const html = renderHtml(input, '/* stub */');
    expect(html).toContain('<script>/* stub */</script>');
    expect(renderHtml(input, '/* stub */')).toBe(html);
  });

  it('refuses an unknown format and a missing file with a message and exit code 2', async () => {
    const bad = await cli(['report', file, '--format', 'pdf']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("'pdf' is invalid");
    const missing = await cli(['report', path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file');
  });
});
