// Issue 15's fuzz suite: more than 10,000 malformed specs, results files and bundle manifests per run
// (seeded, so a failure reproduces), fed to the loaders that read them. None may throw anything
// but a UserError (exit 2 at the CLI boundary), print a stack, or write a file: the spec loader reads
// through an in-memory reader, the others take parsed data.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJournalLine, parseManifest, specDataOf } from '../../../src/executors/bundle/parse.ts';
import { compareResults } from '../../../src/compare/compute.ts';
import { UserError } from '../../../src/errors.ts';
import { renderHtml } from '../../../src/report/html.ts';
import { renderMarkdown } from '../../../src/report/markdown.ts';
import { renderTable } from '../../../src/report/table.ts';
import { fromJson } from '../../../src/results/load.ts';
import { toJson } from '../../../src/results/write.ts';
import { loadSpec } from '../../../src/validate/load.ts';
import { tmpdir } from '../../helpers.ts';
import { exportTinyBundle } from '../../helpers/tiny-bundle.ts';
import { tinyResultsJson } from '../../report/tiny-results.ts';
import { applyEdits, edits, FUZZ_SEED } from './mutate.ts';
import { memoryReader } from './memory-reader.ts';

// 4,000 each of specs, results files and bundle manifests, and 1,000 rounds of journal lines and
// spec.json: 15,000 hostile documents per run, within the suite's time budget on a two-core machine.
const RUNS = 4_000;

/** A small valid spec: every section present, small enough that 10,000 loads take seconds. */
const SMALL = `benchgrid: 1
name: fuzz
title: Fuzz {x}
device: cpu
protocol: { warmups: 1, samples: 3, processes: 2, timeout_s: 60 }
environments: { main: { requirements: [torch==2.14.1] } }
subjects:
  s: { label: S, model: { builder: torchvision, name: resnet18, seed: 0 }, inputs: { kind: image, shape: [1, 3, 8, 8], seed: 0 }, sites: { l: layer2 } }
contracts:
  single_module_output: { site: l }
  raw_forward: {}
tools: { raw: { label: raw }, hooks: { label: hooks }, reference: { label: plain } }
groups:
  A: { reference: hooks, subjects: [s], contracts: [single_module_output], tools: [raw, hooks] }
  B: { subjects: [s], cells: { raw_forward: [reference] } }
page: { sections: [{ id: "{name}", rows: [{ label: "{title}", group: A, contract: single_module_output, entries: [{ tool: raw }] }] }] }
slurm: { partition: debug, sbatch_args: [--qos=short] }
`;

/** Throws again anything that is not a clean refusal: a UserError with one message and no stack frames in it. */
function onlyUserErrors(f: () => unknown): void {
  try {
    f();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    expect(error.message).not.toMatch(/\n\s+at .+:\d+:\d+/);
  }
}

describe('fuzz: malformed specs', () => {
  // A spec and the base it may extend live in memory: nothing is read from or written to disk.
  const files = new Map<string, string>();
  const read = memoryReader(files);
  const base = parse(SMALL) as Record<string, unknown>;

  it('starts from a valid spec', async () => {
    files.set('/fuzz/spec.yaml', SMALL);
    expect((await loadSpec('/fuzz/spec.yaml', read)).diagnostics).toEqual([]);
  });

  it(`loads ${RUNS} mutated specs with diagnostics, never an exception`, async () => {
    files.set('/fuzz/base.yaml', SMALL);
    await fc.assert(
      fc.asyncProperty(
        edits,
        fc.option(fc.tuple(fc.nat(), fc.string({ maxLength: 8 }))),
        fc.nat(3),
        async (list, noise, form) => {
          // Half the specs extend a base; the text is mostly JSON (valid YAML, and fast to write), else block YAML.
          const data = applyEdits(form % 2 ? { benchgrid: 1, extends: 'base.yaml', name: 'child' } : base, list);
          let text = form < 3 ? JSON.stringify(data) : stringify(data, { aliasDuplicateObjects: false });
          if (noise)
            text = text.slice(0, noise[0] % (text.length + 1)) + noise[1] + text.slice(noise[0] % (text.length + 1));
          files.set('/fuzz/spec.yaml', text);
          const loaded = await loadSpec('/fuzz/spec.yaml', read);
          for (const d of loaded.diagnostics) {
            expect(d.line).toBeGreaterThanOrEqual(1);
            expect(d.col).toBeGreaterThanOrEqual(1);
            expect(d.message).not.toMatch(/\n|call stack|undefined is not|Cannot read prop/);
          }
          if (!loaded.spec) expect(loaded.diagnostics.some((d) => d.severity === 'error')).toBe(true);
        },
      ),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  }, 240_000); // about 70 s alone on two cores; twice that beside the suite's other worker
});

describe('fuzz: malformed results files', () => {
  const good = tinyResultsJson();
  const reference = fromJson(good, 'good.json');

  it(`loads ${RUNS} mutated results files or refuses them; what loads renders and compares`, () => {
    let rendered = 0;
    fc.assert(
      fc.property(edits, (list) => {
        onlyUserErrors(() => {
          const results = fromJson(applyEdits(good, list), 'fuzz.json');
          const input = { results, spec: null, libraries: {} };
          renderTable(input, false);
          JSON.stringify(toJson(results));
          compareResults(reference, results, { before: 'a', after: 'b' });
          // The HTML page is the costliest renderer: every 20th accepted file.
          if (rendered++ % 20 === 0) {
            renderMarkdown(input);
            expect(renderHtml(input, '/* stub */')).not.toMatch(/<script>alert/);
          }
        });
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  }, 120_000);
});

describe('fuzz: malformed bundle manifests, journal lines and spec.json', () => {
  let dir: string;
  let manifest: Record<string, unknown>;
  let specJson: Record<string, unknown>;

  beforeAll(async () => {
    dir = await exportTinyBundle(path.join(tmpdir('benchgrid-fuzz-bundle-'), 'bundle'), 'A/single_module_output/*/*');
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'bundle.json'), 'utf8'));
    specJson = JSON.parse(fs.readFileSync(path.join(dir, 'spec.json'), 'utf8'));
  }, 120_000);

  it(`parses ${RUNS} mutated manifests or refuses them, keeping every path inside the bundle`, () => {
    fc.assert(
      fc.property(edits, (list) => {
        onlyUserErrors(() => {
          const m = parseManifest(applyEdits(manifest, list), dir, path.join(dir, 'bundle.json'));
          for (const j of m.jobs)
            for (const p of [j.request, j.result, j.stdout, j.stderr, ...j.pythonpath]) {
              expect(path.resolve(dir, p).startsWith(dir + path.sep)).toBe(true);
            }
        });
      }),
      { seed: FUZZ_SEED, numRuns: RUNS },
    );
  });

  it('parses mutated journal lines and spec.json or refuses them', () => {
    const job = (manifest.jobs as Record<string, unknown>[])[0];
    const record = {
      type: 'process',
      key: job.key,
      cell: job.cell,
      kind: job.kind,
      index: job.index,
      started: '2026-01-01T00:00:00Z',
      wall_s: 1,
      cpus: null,
      exit: { exitCode: 0 },
    };
    fc.assert(
      fc.property(edits, fc.string({ unit: 'binary', maxLength: 40 }), (list, junk) => {
        onlyUserErrors(() => parseJournalLine(JSON.stringify(applyEdits(record, list)), 'journal.jsonl', 1));
        onlyUserErrors(() => parseJournalLine(junk, 'journal.jsonl', 2));
        onlyUserErrors(() => specDataOf(applyEdits(specJson, list), 'spec.json'));
      }),
      { seed: FUZZ_SEED, numRuns: 1_000 },
    );
  });
});
