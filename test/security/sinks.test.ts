// Text from a file reaches four sinks: a terminal (and so a CI log), a GitHub workflow command, markdown
// (report.md, a PR comment) and HTML. One escaping function per sink (src/util/escape.ts) is used by
// every renderer. Each test here puts one hostile string in every string field of a format, one field
// at a time (keys included), renders every output of that sink, and checks that the string was shown
// and not obeyed: no line of its own (so no forged `::warning`), no `##[` command, no terminal control,
// no `<!--`, HTML, remote image, link or @mention in markdown, no markup in HTML.
import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareResults } from '../../src/compare/compute.ts';
import { renderMarkdown as compareMarkdown } from '../../src/compare/render-markdown.ts';
import { renderTable as compareTable } from '../../src/compare/render-table.ts';
import { compareFiles } from '../../src/diff/load.ts';
import { renderMarkdown as diffMarkdown } from '../../src/diff/render-markdown.ts';
import { renderTerminal as diffTerminal } from '../../src/diff/render-terminal.ts';
import { UserError } from '../../src/errors.ts';
import { buildHistory } from '../../src/history/model.ts';
import { renderHistory } from '../../src/history/render.ts';
import { renderPlan } from '../../src/plan/render.ts';
import { ratioTable } from '../../src/ratios/compute.ts';
import { renderRatioMarkdown, renderRatioTable } from '../../src/ratios/render.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderMarkdown } from '../../src/report/markdown.ts';
import { reportInput } from '../../src/report/run-reports.ts';
import { buildSummary, renderSummary } from '../../src/report/summary.ts';
import { renderTable } from '../../src/report/table.ts';
import { fromJson } from '../../src/results/load.ts';
import type { Results } from '../../src/results/model.ts';
import { annotation } from '../../src/spec/annotations.ts';
import { formatDiagnostic } from '../../src/spec/diagnostics.ts';
import { loadSpec } from '../../src/validate/load.ts';
import type { Spec } from '../../src/spec/types.ts';
import { forAnnotation, forHtml, forMarkdown, forMarkdownCode, forTerminal } from '../../src/util/escape.ts';
import { noWorkflowCommands } from '../../src/util/terminal.ts';
import { tmpdir, write } from '../helpers.ts';
import { tinyResultsJson, TINY_SPEC } from '../report/tiny-results.ts';
import { checkHtml, checkMarkdown, checkTerminal } from './sink-checks.ts';

/** Everything a hostile file would try in one string. */
const PAYLOAD =
  'x\n::warning file=a.yaml::FORGED\r\n  ::error::FORGED2 ##[error]FORGED3 \u001b[2J\u001b]0;title\u0007 <!-- HIDE <img src=https://evil.example/i.png> ![i](https://evil.example/i.png) [l](https://evil.example) @octocat <script>alert(1)</script> | \u202egnp.exe `tick';

/** A fake chart library: the HTML renderers inline it; its size is irrelevant here. */
const CHART = '/* chart */';

/** Every string in a document, values and object keys, each as a function that returns a copy with it replaced. */
function stringPlaces(doc: unknown): { where: string; set: (v: string) => unknown }[] {
  const out: { where: string; set: (v: string) => unknown }[] = [];
  const visit = (v: unknown, trail: (string | number)[]) => {
    if (typeof v === 'string') out.push({ where: trail.join('.'), set: (x) => replaced(doc, trail, (_) => x) });
    else if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...trail, i]));
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        out.push({ where: `${[...trail, k].join('.')} (key)`, set: (s) => renamedKey(doc, [...trail, k], s) });
        visit(x, [...trail, k]);
      }
    }
  };
  visit(doc, []);
  return out;
}

function replaced(doc: unknown, trail: (string | number)[], f: (old: unknown) => unknown): unknown {
  const copy = structuredClone(doc) as Record<string | number, unknown>;
  let at = copy;
  for (const k of trail.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  at[trail[trail.length - 1]] = f(at[trail[trail.length - 1]]);
  return copy;
}

/** A copy with the key at `trail` renamed: a cell id keeps its four parts (the payload goes in its tool). */
function renamedKey(doc: unknown, trail: (string | number)[], payload: string): unknown {
  const copy = structuredClone(doc) as Record<string, unknown>;
  let parent = copy;
  for (const k of trail.slice(0, -1)) parent = parent[k] as Record<string, unknown>;
  const key = String(trail[trail.length - 1]);
  const parts = key.split('/');
  const name = parts.length === 4 ? [parts[0], parts[1], payload, parts[3]].join('/') : `${key}${payload}`;
  const entries = Object.entries(parent).map(([k, v]) => [k === key ? name : k, v] as const);
  for (const k of Object.keys(parent)) delete parent[k];
  for (const [k, v] of entries) parent[k] = v;
  return copy;
}

describe('the sink functions', () => {
  it.each<[string, (text: string) => string, string, string]>([
    [
      'terminal: one line, every control and bidi character shown',
      forTerminal,
      'a\nb\r\u001b[2J\u202e\u2028',
      'a\\u000ab\\u000d\\u001b[2J\\u202e\\u2028',
    ],
    ['workflow command: one line for the runner', forAnnotation, '50% done\n::warning::x', '50%25 done%0A::warning::x'],
    [
      'markdown: no comment, HTML, link, image or mention; a backtick pair stays code',
      forMarkdown,
      '<!-- x --> ![i](u) [l](u) @octocat *b* a|b `c`',
      '&lt;!-- x --&gt; !\\[i\\](u) \\[l\\](u) @&#8203;octocat \\*b\\* a\\|b `c`',
    ],
    ['markdown: no heading', forMarkdown, '# title', '\\# title'],
    [
      'markdown code: one span on one line, its backticks and pipes harmless',
      forMarkdownCode,
      'a`b|c\nd',
      "`a'b\\|c d`",
    ],
    [
      'HTML: markup escaped, controls shown, line breaks kept',
      forHtml,
      '<b>"x"</b>\n\u202e',
      '&lt;b&gt;&quot;x&quot;&lt;/b&gt;\n\\u202e',
    ],
    [
      "the guard in a GitHub Actions job leaves no workflow command, benchgrid's own aside",
      noWorkflowCommands,
      'ok\n ::warning::x\nsee ##[error]y',
      'ok\n \\u003a:warning::x\nsee ##\\u005berror]y',
    ],
  ])('%s', (_, sink, text, shown) => {
    expect(sink(text)).toBe(shown);
  });
});

describe('every string field of a results file, in every output', () => {
  const base = tinyResultsJson();
  const places = stringPlaces(base);
  let spec: Spec;

  beforeAll(async () => {
    spec = (await loadSpec(TINY_SPEC)).spec!;
  });

  /** The results with one field hostile, or null when the loader refuses that value (a checked field). */
  function hostile(set: (v: string) => unknown): Results | null {
    try {
      return fromJson(set(PAYLOAD), 'hostile.json');
    } catch (error) {
      if (error instanceof UserError) return null;
      throw error;
    }
  }

  /** The hostile results compared with, and set beside in a ratio table, the clean file (before, label a). */
  function besideClean(results: Results) {
    const clean = fromJson(base, 'clean.json');
    const runs = [
      { label: 'a', results: clean },
      { label: 'b', results },
    ];
    return {
      compared: compareResults(clean, results, { before: 'a', after: 'b' }),
      ratios: ratioTable(runs, { base: 'hooks', tools: null, tolerance: 0.1 }),
    };
  }

  it(`covers the ${places.length} string places of the tiny results file`, () => {
    expect(places.length).toBeGreaterThan(60);
  });

  it('terminal sink: report, compare, ratios and the run summary', () => {
    let rendered = 0;
    for (const { where, set } of places) {
      const results = hostile(set);
      if (!results) continue;
      rendered++;
      for (const input of [reportInput(results, null), reportInput(results, spec)]) {
        checkTerminal(renderTable(input, false), `report table: ${where}`);
        checkTerminal(renderSummary(buildSummary(input, ['report.html']), 100), `run summary: ${where}`);
      }
      const { compared, ratios } = besideClean(results);
      checkTerminal(compareTable(compared, false), `compare table: ${where}`);
      checkTerminal(renderRatioTable(ratios), `ratios table: ${where}`);
    }
    expect(rendered).toBeGreaterThan(30);
  });

  it('markdown sink: report.md, the compare comment and the ratio table', () => {
    for (const { where, set } of places) {
      const results = hostile(set);
      if (!results) continue;
      checkMarkdown(renderMarkdown(reportInput(results, null)), `report.md: ${where}`);
      checkMarkdown(renderMarkdown(reportInput(results, spec)), `report.md with spec: ${where}`);
      const { compared, ratios } = besideClean(results);
      checkMarkdown(compareMarkdown(compared), `compare markdown: ${where}`);
      checkMarkdown(renderRatioMarkdown(ratios), `ratios markdown: ${where}`);
    }
  });

  it('HTML sink: the report and the history site', () => {
    for (const { where, set } of places) {
      const results = hostile(set);
      if (!results) continue;
      checkHtml(renderHtml(reportInput(results, spec), CHART), `report.html: ${where}`);
      const found = { dir: '/runs/x', results, date: '2026-12-01', spec: null };
      checkHtml(
        renderHistory(buildHistory([{ found, revision: 'r', report: 'runs/000-x/report.html' }]), CHART),
        `history: ${where}`,
      );
    }
  });
});

describe('every string field of a spec, in every output', () => {
  let dir: string;
  const base = parse(fs.readFileSync(TINY_SPEC, 'utf8')) as Record<string, unknown>;
  const places = stringPlaces(base).filter((p) => p.where !== 'benchgrid');
  const results = fromJson(tinyResultsJson(), 'tiny.json');

  beforeAll(() => {
    dir = tmpdir('benchgrid-sinks-spec-');
    write(dir, 'old.yaml', stringify(base));
  });

  it(`covers the ${places.length} string places of the tiny report spec`, () => {
    expect(places.length).toBeGreaterThan(40);
  });

  it('terminal and workflow-command sinks: diagnostics, plan, report, diff; markdown and HTML: report and diff', async () => {
    let valid = 0;
    for (const [i, { where, set }] of places.entries()) {
      const file = write(dir, `hostile-${i}.yaml`, stringify(set(PAYLOAD)));
      const loaded = await loadSpec(file);
      for (const d of loaded.diagnostics) {
        checkTerminal(formatDiagnostic(d), `diagnostic: ${where}`);
        const a = annotation(d);
        expect(a.split('\n'), `annotation: ${where}`).toHaveLength(1);
        expect(a, `annotation: ${where}`).toMatch(/^::(error|warning) file=[^:]*,line=\d+,col=\d+,title=[^:]*::/);
      }
      const report = await compareFiles(path.join(dir, 'old.yaml'), file);
      checkTerminal(diffTerminal(report, false), `diff: ${where}`);
      checkMarkdown(diffMarkdown(report).replace('<!-- benchgrid-diff -->', ''), `diff markdown: ${where}`);
      if (!loaded.spec) continue;
      valid++;
      checkTerminal(
        renderPlan(loaded.spec, loaded.plan!, () => true, false),
        `plan: ${where}`,
      );
      const input = reportInput(results, loaded.spec);
      checkTerminal(renderTable(input, false), `report table: ${where}`);
      checkMarkdown(renderMarkdown(input), `report.md: ${where}`);
      checkHtml(renderHtml(input, CHART), `report.html: ${where}`);
    }
    expect(valid).toBeGreaterThan(10);
  }, 120_000);
});
