// The fuzz suite's second part, on specs: the hostile classes of the second hardening round, each a
// seeded, bounded corpus fed through the spec loader, its diagnostics and the plan, with a bound on each
// input's time.
// - names that are Object.prototype properties, as every kind of name of a spec;
// - control characters, markdown and HTML in random string fields and keys;
// - extreme numbers, long names, deep and wide parts.
// An exception other than a refusal, an input past its bound, or a file touched in the repository fails
// the run. Corpus: 600 specs, read from memory.
import fs from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPlan } from '../../../src/plan/render.ts';
import { formatDiagnostic } from '../../../src/spec/diagnostics.ts';
import { loadSpec } from '../../../src/validate/load.ts';
import { TINY_SPEC } from '../../report/tiny-results.ts';
import { checkTerminal } from '../sink-checks.ts';
import { locate, pathTo, places, setAt } from './doc-paths.ts';
import { bounded, EXTREME, hostileText, PROTO, repoState } from './hostile-fixtures.ts';
import { FUZZ_SEED } from './mutate.ts';
import { memoryReader } from './memory-reader.ts';

let repoBefore: string;

beforeAll(() => {
  repoBefore = repoState();
});

afterAll(() => {
  expect(repoState()).toBe(repoBefore);
});

describe('fuzz: hostile specs', () => {
  const text = fs.readFileSync(TINY_SPEC, 'utf8');
  const base = parse(text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a spec edited by path
  const files = new Map<string, string>();
  const read = memoryReader(files);
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
