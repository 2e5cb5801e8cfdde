// The seed's results page, reproduced from its results file and the spec's page section, text for text.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadResults } from '../../src/results/load.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { resolvePage } from '../../src/report/page.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { loadSpecForReport } from '../../src/report/spec.ts';
import { renderTable } from '../../src/report/table.ts';
import { ROOT, PREDECESSOR_RESULTS, cli } from '../helpers.ts';

const SPEC = path.join(ROOT, 'specs/resnet18_gpu.yaml');
const seed = JSON.parse(fs.readFileSync(PREDECESSOR_RESULTS, 'utf8')) as {
  page_rows: { section: string; text: string }[];
};

/** Table rows of a markdown page by the `## heading` they sit under (header and separator rows left out). */
function rowsByHeading(markdown: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let heading = '';
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) {
      heading = line.slice(3);
      out.set(heading, []);
    } else if (line.startsWith('| ') && !line.startsWith('| ---') && !/^\| (Workload|Contract|Cell) \|/.test(line)) {
      out.get(heading)?.push(line);
    }
  }
  return out;
}

describe('the seed, reported with specs/resnet18_gpu.yaml', () => {
  it("`report --format markdown` reproduces all 29 of the seed's page_rows, in order, under their section headings", async () => {
    const r = await cli(['report', PREDECESSOR_RESULTS, '--spec', SPEC, '--format', 'markdown']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const spec = await loadSpecForReport(SPEC);
    const byHeading = rowsByHeading(r.stdout);
    expect(seed.page_rows).toHaveLength(29);
    const sections = [...new Set(seed.page_rows.map((p) => p.section))];
    for (const id of sections) {
      const title = spec.page.find((s) => s.id === id)?.title;
      expect(title, `the spec has a page section '${id}'`).toBeDefined();
      expect(byHeading.get(title!)).toEqual(seed.page_rows.filter((p) => p.section === id).map((p) => p.text));
    }
  });

  it('lists every cell that is not on the page in the appendix, with its status and reason', async () => {
    const results = loadResults(PREDECESSOR_RESULTS);
    const input = reportInput(results, await loadSpecForReport(SPEC));
    const page = resolvePage(input);
    const onPage = new Set(page.sections.flatMap((s) => s.entries.map((e) => e.cell)));
    expect(page.missing).toEqual([]);
    expect(page.appendix.length + onPage.size).toBe(results.cells.length);
    const appendix = rowsByHeading(renderMarkdown(input)).get('Cells not on the page')!;
    const notOnPage = results.cells.filter((c) => !onPage.has(c.id));
    expect(appendix.map((row) => row.split(' | ')[0].slice(2))).toEqual(notOnPage.map((c) => `\`${c.id}\``));
    expect(appendix).toContain(
      '| `A/same_site_gradient/nnsight/resnet18` | unsupported |  |  | the .grad proxy resolved to None in this nnsight version |',
    );
    expect(appendix).toContain(
      '| `B/bundle_compare/torchlens/resnet18` | ok | 986.80 ms (969.00 ms to 1.01 s) |  |  |',
    );
  });

  it('says how it was measured: protocol, host, versions and A/A noise', async () => {
    const md = renderMarkdown(reportInput(loadResults(PREDECESSOR_RESULTS), await loadSpecForReport(SPEC)));
    const how = md.slice(md.indexOf('## How it was measured'));
    expect(how).toContain('Each cell ran in 3 fresh Python processes');
    expect(how).toContain('NVIDIA GeForce RTX 2080 Ti');
    expect(how).toContain('captum 0.9.0');
    expect(how).toContain('differed by up to 5.0% (medians 8.29 ms, 7.89 ms)');
  });

  it('without --spec renders a generic page with one table per group and subject, every cell in file order', async () => {
    const r = await cli(['report', PREDECESSOR_RESULTS, '--format', 'markdown']);
    expect(r.code).toBe(0);
    const byHeading = rowsByHeading(r.stdout);
    expect([...byHeading.keys()].filter((h) => h !== 'How it was measured')).toEqual(['A / resnet18', 'B / resnet18']);
    const results = loadResults(PREDECESSOR_RESULTS);
    expect(byHeading.get('A / resnet18')).toHaveLength(results.cells.filter((c) => c.group === 'A').length);
    expect(byHeading.get('A / resnet18')![0]).toBe(
      '| single_module_output, n=3 processes | raw | 2.30 ms (2.29 ms to 2.34 ms) |',
    );
    expect(byHeading.get('A / resnet18')).toContain(
      '| single_module_output | tl_bind | not run: a bound edit records nothing; it serves edit contracts only |',
    );
  });

  it("`--format json` prints the loader's normalised model", async () => {
    const r = await cli(['report', PREDECESSOR_RESULTS, '--format', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(loadResults(PREDECESSOR_RESULTS))));
  });

  it('draws the terminal grid without colour under NO_COLOR, even with FORCE_COLOR set', async () => {
    const r = await cli(['report', PREDECESSOR_RESULTS, '--spec', SPEC], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/\x1b\[/);
    expect(r.stdout).toContain('A: peer matrix / ResNet-18: 37 ok, 1 failed, 34 not run');
    expect(r.stdout).toMatch(/│ single_module_output +│ 2\.30 ms +│ 2\.32 ms +│ 2\.61 ms = +│/);
    expect(r.stdout).toMatch(/│ 7\.76 ms ~ +│/);
    expect(r.stdout).toMatch(/│ error \(j\) +│/);
    // Long reasons wrap under their key to fit the width (100 columns when unknown).
    expect(r.stdout.replace(/\n {6}/g, ' ')).toContain(
      '  (j) failed: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!',
    );
    expect(r.stdout).toContain('  (a) a bound edit records nothing; it serves edit contracts only');
  });

  it('colours the grid only when asked to', async () => {
    const input = reportInput(loadResults(PREDECESSOR_RESULTS), null);
    expect(renderTable(input, true)).toMatch(/\x1b\[32m2\.30 ms\x1b\[39m/);
    expect(renderTable(input, false)).not.toMatch(/\x1b\[/);
  });

  it('orders the grid by the cell ids in the file when there is no spec', () => {
    // Wide enough for every tool's name in one grid.
    const out = renderTable(reportInput(loadResults(PREDECESSOR_RESULTS), null), false, 300);
    expect(out).toContain('A / resnet18: 37 ok, 1 failed, 34 not run');
    expect(out).toMatch(/│ +│ raw +│ hooks +│ nnsight +│ tl_trace_sparse +│ tl_record +│ tl_extract +│ tl_bind +│/);
    expect(out.indexOf('│ raw_forward ')).toBeLessThan(out.indexOf('│ hooks_all_modules '));
  });
});
