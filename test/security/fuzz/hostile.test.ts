// The fuzz suite's second part: the hostile classes of the second hardening round, each a seeded,
// bounded corpus fed through the loaders and every renderer, with a bound on each input's time.
// - names that are Object.prototype properties, as every kind of name of a spec and a results file;
// - control characters, markdown and HTML in random string fields, checked at every sink;
// - extreme numbers in every number field: refused, or arithmetic that stays finite;
// - long ids, deep and wide documents;
// - results trees full of symbolic links (dangling, looping, leading out) and a site folder with planted ones.
// An exception other than a refusal, an input past its bound, or a file touched outside the test's
// directory fails the run. Corpus: 600 specs, 1,300 results files, 40 trees; about a minute on two cores.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareResults } from '../../../src/compare/compute.ts';
import { renderMarkdown as compareMarkdown } from '../../../src/compare/render-markdown.ts';
import { renderTable as compareTable } from '../../../src/compare/render-table.ts';
import { history } from '../../../src/commands/history.ts';
import { UserError } from '../../../src/errors.ts';
import { buildHistory } from '../../../src/history/model.ts';
import { renderHistory } from '../../../src/history/render.ts';
import { findRuns } from '../../../src/history/runs.ts';
import { renderPlan } from '../../../src/plan/render.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { reportInput } from '../../../src/report/run-reports.ts';
import { renderTable } from '../../../src/report/table.ts';
import { fromJson } from '../../../src/results/load.ts';
import { formatDiagnostic } from '../../../src/spec/diagnostics.ts';
import type { Reader } from '../../../src/spec/extends.ts';
import { loadSpec } from '../../../src/validate/load.ts';
import { ROOT, tmpdir, write } from '../../helpers.ts';
import { tinyResultsJson, TINY_SPEC } from '../../report/tiny-results.ts';
import { checkHtml, checkMarkdown, checkTerminal } from '../sink-checks.ts';
import { locate, pathTo, places, setAt } from './doc-paths.ts';
import { FUZZ_SEED } from './mutate.ts';

/** The longest one input may take before it counts as a hang (a generous bound on a busy two-core machine). */
const BOUND_MS = 20_000;

/** Runs `f` on an input; a refusal (UserError) is fine, anything else thrown fails, and so does a run past BOUND_MS. */
async function bounded<T>(what: string, f: () => T | Promise<T>): Promise<T | undefined> {
  const t0 = performance.now();
  let value: T | undefined;
  try {
    value = await f();
  } catch (error) {
    if (!(error instanceof UserError)) throw new Error(`${what}: ${(error as Error).stack}`);
  }
  const ms = performance.now() - t0;
  if (ms > BOUND_MS) throw new Error(`${what}: took ${Math.round(ms)} ms, past the ${BOUND_MS} ms bound of one input`);
  return value;
}

const PROTO = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
];
/** Characters a hostile text is made of: line breaks, escapes, markup, markdown, bidi, NUL, BOM. */
const HOSTILE_CHARS = [
  '\n',
  '\r',
  '\r\n',
  '\u001b[2J',
  '\u009b',
  '\u0000',
  '\ufeff',
  '\u202e',
  '\u2028',
  '<!--',
  '<img src=https://evil.example/i.png>',
  '<script>',
  '![i](https://evil.example/i.png)',
  '[l](https://evil.example)',
  '@octocat',
  '`',
  '|',
  '#',
  '::warning file=a.yaml::FORGED',
  '##[error]',
  '%0A',
  '$&',
  'a',
  ' ',
];
const hostileText = fc
  .array(fc.constantFrom(...HOSTILE_CHARS), { minLength: 1, maxLength: 8 })
  .map((xs) => xs.join(''));
const EXTREME = [
  0,
  -0,
  -1,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  1e-7,
  86_400_001,
  1e10,
  0.5,
  3,
];

let dir: string;
let sentinel: string;
let repoBefore: string;

/** The repository's top level and its results/ folder: nothing here may write there. */
function repoState(): string {
  const results = path.join(ROOT, 'results');
  return [...fs.readdirSync(ROOT), ...(fs.existsSync(results) ? fs.readdirSync(results) : [])].sort().join('\n');
}

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

describe('fuzz: hostile specs', () => {
  const text = fs.readFileSync(TINY_SPEC, 'utf8');
  const base = parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a spec edited by path
  const files = new Map<string, string>();
  const read: Reader = async (file) => {
    const t = files.get(file);
    return t === undefined
      ? {
          ok: false,
          diagnostic: {
            severity: 'error',
            code: 'missing-file',
            file,
            line: 1,
            col: 1,
            path: '',
            message: 'no such file.',
          },
        }
      : { ok: true, text: t };
  };
  const load = async (what: string, doc: unknown) => {
    files.set('/fuzz/spec.yaml', JSON.stringify(doc));
    const loaded = await bounded(what, () => loadSpec('/fuzz/spec.yaml', read));
    for (const d of loaded?.diagnostics ?? []) checkTerminal(formatDiagnostic(d), `${what}: ${d.code}`);
    if (loaded?.spec)
      checkTerminal(
        renderPlan(loaded.spec, loaded.plan!, () => true, false),
        `plan: ${what}`,
      );
    return loaded;
  };

  it('names from Object.prototype as every kind of name: a name like any other, or refused in words', async () => {
    const renames: [string, (s: any, n: string) => void][] = [
      // eslint-disable-line @typescript-eslint/no-explicit-any -- a spec edited by path
      [
        'tool',
        (s, n) => {
          s.tools[n] = { label: n, adapter: 'raw' };
          s.groups.A.tools.push(n);
        },
      ],
      [
        'tool without adapter',
        (s, n) => {
          s.tools[n] = { label: n };
          s.groups.A.tools.push(n);
        },
      ],
      [
        'subject',
        (s, n) => {
          s.subjects[n] = s.subjects.resnet18;
          s.groups.A.subjects = [n];
          delete s.subjects.resnet18;
        },
      ],
      [
        'contract',
        (s, n) => {
          s.contracts[n] = { kind: 'single_module_output', site: 'layer2' };
          s.groups.A.contracts.push(n);
        },
      ],
      [
        'group',
        (s, n) => {
          s.groups[n] = s.groups.A;
        },
      ],
      [
        'site',
        (s, n) => {
          s.subjects.resnet18.sites[n] = 'layer2';
          s.contracts.single_module_output.site = n;
        },
      ],
      [
        'undeclared site',
        (s, n) => {
          s.contracts.single_module_output.site = n;
        },
      ],
      [
        'environment',
        (s, n) => {
          s.environments = { [n]: { requirements: [] } };
        },
      ],
      [
        'runner',
        (s, n) => {
          s.tools.raw.runner = n;
        },
      ],
    ];
    let valid = 0;
    for (const name of PROTO)
      for (const [kind, edit] of renames) {
        const doc = structuredClone(base);
        edit(doc, name);
        if ((await load(`${kind} ${name}`, doc))?.spec) valid++;
      }
    expect(valid).toBeGreaterThan(20);
  });

  it('100 specs with hostile text in random string fields and keys', async () => {
    const all = places(base, 'string');
    const samples = fc.sample(fc.tuple(fc.nat(), hostileText, fc.boolean()), { seed: FUZZ_SEED, numRuns: 100 });
    for (const [i, [at, text, asKey]] of samples.entries()) {
      const doc = structuredClone(base);
      const [parent, key] = places(doc, 'string')[at % all.length];
      if (asKey && !Array.isArray(parent)) {
        parent[`${String(key)}${text}`] = parent[key as string];
        delete parent[key as string];
      } else setAt(parent, key, text);
      await load(`hostile text #${i}`, doc);
    }
  }, 120_000);

  it('100 specs with extreme numbers, long names, and deep or wide parts', async () => {
    const nums = places(base, 'number');
    const samples = fc.sample(
      fc.tuple(fc.nat(), fc.constantFrom(...EXTREME), fc.nat(4), fc.integer({ min: 50, max: 400 })),
      { seed: FUZZ_SEED, numRuns: 100 },
    );
    for (const [i, [at, value, shape, size]] of samples.entries()) {
      const doc = structuredClone(base);
      const [p, k] = nums[at % nums.length];
      setAt(...locate(doc, pathTo(base, p, k)), value);
      if (shape === 0) {
        doc.contracts[`c${'x'.repeat(size)}`] = { kind: 'single_module_output', site: 'layer2' };
        doc.groups.A.contracts.push(`c${'x'.repeat(size)}`);
      }
      if (shape === 1) {
        let deep: unknown = 1;
        for (let d = 0; d < size % 80; d++) deep = [deep];
        doc.contracts.single_module_output.params = { deep };
      }
      if (shape === 2)
        doc.contracts.single_module_output.params = Object.fromEntries(
          Array.from({ length: size * 20 }, (_, j) => [`k${j}`, j]),
        );
      if (shape === 3)
        for (let t = 0; t < size; t++) {
          doc.tools[`t${t}`] = { label: `t${t}`, adapter: 'raw' };
          doc.groups.A.tools.push(`t${t}`);
        }
      await load(`shape ${shape} size ${size}, ${String(k)} = ${value} (#${i})`, doc);
    }
  }, 120_000);
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
