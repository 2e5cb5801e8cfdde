// The fuzz suite's second part: the hostile classes of the second hardening round, each a seeded,
// bounded corpus fed through the loaders and every renderer, with a bound on each input's time.
// - names that are Object.prototype properties, as every kind of name of a results file;
// - control characters, markdown and HTML in random string fields, checked at every sink;
// - extreme numbers in every number field: refused, or arithmetic that stays finite;
// - long ids, deep and wide documents;
// - results trees full of symbolic links (dangling, looping, leading out) and a site folder with planted ones.
// An exception other than a refusal, an input past its bound, or a file touched outside the test's
// directory fails the run. Corpus: 1,300 results files, 40 trees; the hostile specs are in
// hostile-specs.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareResults } from '../../../src/compare/compute.ts';
import { renderMarkdown as compareMarkdown } from '../../../src/compare/render-markdown.ts';
import { renderTable as compareTable } from '../../../src/compare/render-table.ts';
import { history } from '../../../src/commands/history.ts';
import { buildHistory } from '../../../src/history/model.ts';
import { renderHistory } from '../../../src/history/render.ts';
import { findRuns } from '../../../src/history/runs.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { reportInput } from '../../../src/report/run-reports.ts';
import { renderTable } from '../../../src/report/table.ts';
import { fromJson } from '../../../src/results/load.ts';
import { tmpdir, write } from '../../helpers.ts';
import { tinyResultsJson } from '../../report/tiny-results.ts';
import { checkHtml, checkMarkdown, checkTerminal } from '../sink-checks.ts';
import { places, setAt } from './doc-paths.ts';
import { bounded, EXTREME, hostileText, PROTO, repoState } from './hostile-fixtures.ts';
import { FUZZ_SEED } from './mutate.ts';

let dir: string;
let sentinel: string;
let repoBefore: string;

beforeAll(() => {
  dir = tmpdir('benchgrid-fuzz-hostile-');
  sentinel = write(tmpdir('benchgrid-fuzz-outside-'), 'sentinel.json', '{"SECRET": "outside the tree"}\n');
  repoBefore = repoState();
});

afterAll(() => {
  expect(repoState()).toBe(repoBefore);
  expect(fs.readFileSync(sentinel, 'utf8')).toBe('{"SECRET": "outside the tree"}\n');
});

/** Renders results through every renderer of every sink and checks each. */
function renderAll(results: ReturnType<typeof fromJson>, what: string): void {
  const input = reportInput(results, null);
  checkTerminal(renderTable(input, false), `report table: ${what}`);
  checkMarkdown(renderMarkdown(input), `report.md: ${what}`);
  checkHtml(renderHtml(input, '/* chart */'), `report.html: ${what}`);
  const c = compareResults(fromJson(tinyResultsJson()), results, { before: 'a', after: 'b' });
  checkTerminal(compareTable(c, false), `compare: ${what}`);
  checkMarkdown(compareMarkdown(c), `compare markdown: ${what}`);
  // Arithmetic never meets a value it cannot handle: every number of the comparison is finite.
  for (const [p, k] of places(c, 'number'))
    expect(Number.isFinite((p as Record<string, number>)[k as string]), `${what}: ${String(k)}`).toBe(true);
  checkHtml(
    renderHistory(
      buildHistory([{ found: { dir: '/x', results, date: '2026-12-01', spec: null }, revision: 'r', report: null }]),
      '/* chart */',
    ),
    `history: ${what}`,
  );
}

describe('fuzz: hostile results files', () => {
  const base = tinyResultsJson();

  it('names from Object.prototype as subject, group, contract, tool and library names', async () => {
    for (const name of ['__proto__', ...PROTO]) {
      for (const kind of ['subject', 'group', 'contract', 'tool', 'version']) {
        const raw = structuredClone(base) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data
        if (kind === 'version') raw.versions = { ...raw.versions, [name]: '1.0' };
        if (['group', 'contract', 'tool'].includes(kind)) {
          const groups: Record<string, unknown> = {};
          for (const [id, cell] of Object.entries(raw.resnet18.groups)) {
            const parts = id.split('/');
            parts[['group', 'contract', 'tool'].indexOf(kind)] = name;
            Object.defineProperty(groups, parts.join('/'), {
              value: cell,
              enumerable: true,
              configurable: true,
              writable: true,
            });
          }
          raw.resnet18.groups = groups;
        }
        // A subject key: renamed in the JSON text, which is what a file holds (JSON.parse keeps `__proto__` a key).
        const text =
          kind === 'subject'
            ? JSON.stringify(raw).replace('"resnet18":{"meta"', `"${name}":{"meta"`)
            : JSON.stringify(raw);
        const what = `${kind} ${name}`;
        const results = await bounded(what, () => fromJson(JSON.parse(text), 'proto.json'));
        if (results) await bounded(what, () => renderAll(results, what));
      }
    }
  });

  /** A copy of the base results with each edit's value set at one of its fields of `type` (the edit's index, wrapped). */
  function edited(type: 'string' | 'number', edits: [number, unknown][]): unknown {
    const raw = structuredClone(base);
    const mine = places(raw, type);
    for (const [at, value] of edits) setAt(...(mine[at % mine.length] as [Record<string, unknown>, string]), value);
    return raw;
  }

  it('500 results files with hostile text in random string fields, at every sink', async () => {
    const samples = fc.sample(fc.array(fc.tuple(fc.nat(), hostileText), { minLength: 1, maxLength: 4 }), {
      seed: FUZZ_SEED,
      numRuns: 500,
    });
    for (const [i, edits] of samples.entries()) {
      const raw = edited('string', edits);
      const what = `hostile text #${i}: ${JSON.stringify(edits)}`;
      const results = await bounded(what, () => fromJson(raw, 'fuzz.json'));
      if (results && i % 5 === 0) await bounded(what, () => renderAll(results, what));
      else if (results) await bounded(what, () => checkTerminal(renderTable(reportInput(results, null), false), what));
    }
  }, 240_000);

  it('500 results files with extreme numbers in random number fields: refused, or finite arithmetic', async () => {
    const samples = fc.sample(
      fc.array(fc.tuple(fc.nat(), fc.constantFrom(...EXTREME)), { minLength: 1, maxLength: 3 }),
      { seed: FUZZ_SEED, numRuns: 500 },
    );
    let accepted = 0;
    for (const [i, edits] of samples.entries()) {
      const raw = edited('number', edits);
      const what = `extreme numbers #${i}: ${JSON.stringify(edits)}`;
      const results = await bounded(what, () => fromJson(raw, 'fuzz.json'));
      if (!results) continue;
      accepted++;
      const c = await bounded(what, () =>
        compareResults(fromJson(base), results, { before: 'a', after: 'b' }, { fail_on_slower: 0.05 }),
      );
      for (const [p, k] of places(c, 'number'))
        expect(Number.isFinite((p as Record<string, number>)[k as string]), what).toBe(true);
      expect(compareTable(c!, false), what).not.toMatch(/Infinity|NaN/);
    }
    expect(accepted).toBeGreaterThan(50);
  }, 240_000);

  it('long ids, and deep and wide documents, within their bound', async () => {
    const long = (n: number) => 'x'.repeat(n);
    const wide = structuredClone(base) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data
    const cell = wide.resnet18.groups['A/single_module_output/raw/resnet18'];
    for (let i = 0; i < 3000; i++) wide.resnet18.groups[`G${i}/c${i % 7}/t${i % 11}/resnet18`] = cell;
    for (let i = 0; i < 200; i++) wide[`subject${i}`] = { groups: { [`A/c/t/subject${i}`]: cell }, meta: null };
    const longIds = structuredClone(base) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data
    longIds.resnet18.groups[`${long(3000)}/${long(3000)}/${long(3000)}/resnet18`] = cell;
    let deep: unknown = 1;
    for (let i = 0; i < 60; i++) deep = { d: deep };
    const deepHost = { ...structuredClone(base), host: { deep } };
    for (const [what, raw] of [
      ['3,000 cells and 200 subjects', wide],
      ['a 9,000-character id', longIds],
      ['a host nested 60 deep', deepHost],
    ] as const) {
      const results = await bounded(what, () => fromJson(raw, 'fuzz.json'));
      expect(results, what).toBeDefined();
      await bounded(what, () => renderAll(results!, what));
    }
  }, 240_000);
});

describe('fuzz: results trees with symbolic links', () => {
  it('40 trees of runs, dangling links, loops and links out: history reads only inside, writes only its site', async () => {
    const samples = fc.sample(
      fc.array(fc.constantFrom('run', 'dangling', 'loop', 'out-dir', 'out-file', 'results-out', 'inside'), {
        minLength: 1,
        maxLength: 6,
      }),
      { seed: FUZZ_SEED, numRuns: 40 },
    );
    const outsideDir = path.dirname(sentinel);
    for (const [i, kinds] of samples.entries()) {
      const root = path.join(dir, `tree-${i}`, 'results', 'spec');
      fs.mkdirSync(root, { recursive: true });
      kinds.forEach((kind, j) => {
        const p = path.join(root, `e${j}`);
        if (kind === 'run') write(p, 'results.json', JSON.stringify(tinyResultsJson()));
        if (kind === 'dangling') fs.symlinkSync(path.join(dir, 'nothing-here'), p);
        if (kind === 'loop') fs.symlinkSync(p, p);
        if (kind === 'out-dir') fs.symlinkSync(outsideDir, p);
        if (kind === 'out-file') fs.symlinkSync(sentinel, p);
        if (kind === 'results-out') {
          fs.mkdirSync(p);
          fs.symlinkSync(sentinel, path.join(p, 'results.json'));
        }
        if (kind === 'inside') fs.symlinkSync('.', p);
      });
      const site = path.join(dir, `tree-${i}`, 'site');
      fs.mkdirSync(site, { recursive: true });
      fs.symlinkSync(sentinel, path.join(site, 'index.html'));
      const found = await bounded(`tree ${i}: ${kinds.join(',')}`, () => findRuns([path.dirname(root)]));
      for (const run of found?.runs ?? []) expect(run.dir.startsWith(path.join(dir, `tree-${i}`)), run.dir).toBe(true);
      for (const w of found?.warnings ?? []) expect(w).not.toContain('SECRET');
      // Writing the site replaces the planted index.html link; the sentinel it points to is checked after all trees.
      if (found?.runs.length) {
        await bounded(`history of tree ${i}`, () => history([path.dirname(root)], { out: site }));
        expect(fs.lstatSync(path.join(site, 'index.html')).isSymbolicLink()).toBe(false);
      }
    }
  }, 120_000);
});
