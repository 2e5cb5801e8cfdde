// Names that are properties of Object.prototype (`constructor`, `toString`, `__proto__`, ...) as tool,
// subject, contract, group, runner, site or environment names: they crashed validate and ingest with a
// stack (exit 1) or passed validation as if an adapter existed. Every map keyed by a name from input is
// a Map or has no prototype, so such a name is a name like any other.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fromJson } from '../../src/results/load.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { cli, ROOT, tmpdir, write } from '../helpers.ts';
import { tinyResultsJson } from '../report/tiny-results.ts';
import { PROTO } from './fuzz/hostile-fixtures.ts';

let dir: string;
beforeAll(() => {
  dir = tmpdir('benchgrid-proto-');
  // A runner of our own named `constructor`: a copy of the built-in one.
  fs.cpSync(path.join(ROOT, 'runners/torch'), path.join(dir, 'myrunner'), {
    recursive: true,
    filter: (f) => !f.includes('__pycache__'),
  });
});

/** A valid spec whose every name is a property of Object.prototype. */
function protoSpec(extra = ''): string {
  return write(
    dir,
    `proto-${Math.random().toString(36).slice(2)}.yaml`,
    `benchgrid: 1
name: proto
title: Prototype names
device: cpu
protocol: { warmups: 1, samples: 3, processes: 1, timeout_s: 120 }
environments:
  toLocaleString: { requirements: [torch==2.14.1] }
runners: { constructor: myrunner }
subjects:
  toString:
    label: S
    model: { builder: torchvision, name: resnet18, seed: 0 }
    inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }
    sites: { hasOwnProperty: layer2 }
contracts:
  valueOf: { kind: single_module_output, site: hasOwnProperty }
  isPrototypeOf: { kind: matched_retained, site: hasOwnProperty }
tools:
  constructor: { label: ctor, adapter: raw, runner: constructor }
  propertyIsEnumerable: { label: hooks, adapter: hooks }
groups:
  toLocaleString:
    reference: propertyIsEnumerable
    subjects: [toString]
    contracts: [valueOf, isPrototypeOf]
    tools: [constructor, propertyIsEnumerable]
${extra}`,
  );
}

describe('a spec whose names are properties of Object.prototype', () => {
  it('validates and plans like any other', async () => {
    const loaded = await loadSpec(protoSpec());
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(loaded.plan!.cells.map((c) => c.id)).toEqual([
      'toLocaleString/valueOf/constructor/toString',
      'toLocaleString/valueOf/propertyIsEnumerable/toString',
      'toLocaleString/isPrototypeOf/constructor/toString',
      'toLocaleString/isPrototypeOf/propertyIsEnumerable/toString',
    ]);
    expect(loaded.plan!.cells.every((c) => c.status === 'planned')).toBe(true);
  });

  it.each(PROTO)('a tool named %s with no such adapter is an unknown adapter, not a pass (exit 2)', async (name) => {
    const file = write(
      dir,
      `tool-${name}.yaml`,
      `benchgrid: 1
name: t
title: T
device: cpu
subjects:
  s: { label: S, model: { builder: torchvision, name: resnet18, seed: 0 }, inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }, sites: { l: layer2 } }
contracts: { single_module_output: { site: l } }
tools: { ${name}: { label: x }, hooks: { label: h } }
groups:
  A: { reference: hooks, subjects: [s], contracts: [single_module_output], tools: [${name}, hooks] }
`,
    );
    const r = await cli(['validate', file]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`tools\\.${name}: runner 'torch' has no adapter '${name}'`));
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it.each([
    ['a subject', 'subjects: [toString, constructor]', /unknown subject 'constructor'/],
    ['a contract', 'contracts: [valueOf, toString]', /unknown contract 'toString'/],
    ['a site', '', /reads site 'valueOf', which subject 'toString' does not declare/],
  ])('%s that names Object.prototype without declaring it is unknown (exit 2)', async (_, swap, pattern) => {
    let text = fs.readFileSync(protoSpec(), 'utf8');
    if (swap.startsWith('subjects')) text = text.replace('subjects: [toString]', swap);
    else if (swap.startsWith('contracts')) text = text.replace('contracts: [valueOf, isPrototypeOf]', swap);
    else
      text = text.replace(
        'valueOf: { kind: single_module_output, site: hasOwnProperty }',
        'valueOf: { kind: single_module_output, site: valueOf }',
      );
    const r = await cli(['validate', write(dir, `undeclared-${Math.random().toString(36).slice(2)}.yaml`, text)]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(pattern);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  it('validate, plan, env list, export and diff exit 0 on it, and ingest reads the bundle back', async () => {
    const spec = protoSpec();
    for (const args of [
      ['validate', spec],
      ['plan', spec],
      ['plan', spec, '--json'],
      ['env', 'list', spec],
      ['diff', spec, protoSpec('page: { sections: [] }\n')],
    ]) {
      const r = await cli(args, { env: { BENCHGRID_CACHE: path.join(dir, 'cache') } });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      expect(r.stderr).not.toMatch(/internal error/);
    }
    const bundle = path.join(dir, 'bundle');
    const e = await cli(['export', spec, '--out', bundle]);
    expect(e.code, e.stderr).toBe(0);
    const i = await cli(['ingest', bundle, '--partial', '--out', path.join(dir, 'ingested')]);
    expect(i.code, i.stderr).toBe(0);
    // Nothing ran (no driver): every cell is listed as missing, by its name.
    const results = JSON.parse(fs.readFileSync(path.join(dir, 'ingested', 'results.json'), 'utf8'));
    expect(results.run.missing).toContain('toLocaleString/valueOf/constructor/toString');
  }, 300_000); // eight CLI runs, each starting Node and loading the spec; about 100 s on a busy two-core machine
});

/** The tiny results with one copy of its subject per name, that name as subject, group, contract and tool. */
function renamed(names: string[]): Record<string, unknown> {
  const raw = tinyResultsJson() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test data edited by path
  const subject = raw.resnet18;
  delete raw.resnet18;
  for (const n of names) {
    const groups: Record<string, unknown> = {};
    for (const [id, cell] of Object.entries(subject.groups)) {
      const [g, c, t] = id.split('/');
      const nid = [g === 'A' ? n : g, c === 'single_module_output' ? n : c, t === 'raw' ? n : t, n].join('/');
      Object.defineProperty(groups, nid, {
        value: structuredClone(cell),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    const copy = { ...structuredClone({ ...subject, groups: {} }), groups };
    copy.meta.aa_noise = null;
    Object.defineProperty(raw, n, { value: copy, enumerable: true, configurable: true, writable: true });
  }
  return raw;
}

const NAMES = ['__proto__', ...PROTO];

describe('a results file whose names are properties of Object.prototype', () => {
  it.each(NAMES)('%s as subject, group, contract and tool: loaded as it is', (name) => {
    // JSON.parse keeps `__proto__` as an own key, as a file read from disk does.
    const results = fromJson(JSON.parse(JSON.stringify(renamed([name]))), 'proto.json');
    expect(Object.keys(results.subjects)).toEqual([name]);
    expect(
      results.cells.some((c) => c.tool === name && c.contract === name && c.group === name && c.subject === name),
    ).toBe(true);
  });

  it('report (every format), compare, ratios and history exit 0 on a file holding all of them, naming them', async () => {
    const run = path.join(dir, 'run-proto');
    const file = write(run, 'results.json', JSON.stringify(renamed(NAMES)));
    const runs: string[][] = [
      ...['table', 'markdown', 'html', 'json'].map((f) => ['report', file, '--format', f]),
      ['compare', file, file],
      ['compare', file, file, '--format', 'markdown'],
      ['ratios', file, file, '--base', 'constructor', '--tools', 'all'],
      ['history', run, '--out', path.join(dir, 'site-proto')],
    ];
    for (const args of runs) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(0);
      expect(r.stderr).not.toMatch(/internal error/);
      if (args[0] === 'report' && args.includes('json'))
        expect(Object.keys(JSON.parse(r.stdout).subjects).sort()).toEqual([...NAMES].sort());
      if (args[0] === 'report' && args.includes('markdown')) for (const n of NAMES) expect(r.stdout).toContain(n);
    }
  }, 300_000);
});
