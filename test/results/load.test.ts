// One loader reads the seed's results file (upgraded from its layout) and benchgrid's own files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fromJson, loadResults } from '../../src/results/load.ts';
import { toJson } from '../../src/results/write.ts';
import { PREDECESSOR_RESULTS, tmpdir, write } from '../helpers.ts';

describe('loading results', () => {
  const seed = loadResults(PREDECESSOR_RESULTS);
  const raw = JSON.parse(fs.readFileSync(PREDECESSOR_RESULTS, 'utf8'));

  it("reads the seed's file as an old format, with all 83 cells", () => {
    expect(seed.origin).toBe('seed');
    expect(seed.cells).toHaveLength(83);
    expect(seed.cells.map((c) => c.id)).toEqual(Object.keys(raw.resnet18.groups));
    expect(seed.page_rows).toHaveLength(29);
    expect(seed.subjects.resnet18.meta?.aa_noise?.pairs).toBe(raw.resnet18.meta.aa_noise.pairs);
  });

  it("keeps the seed's numbers and statuses as they are", () => {
    for (const c of seed.cells) {
      const s = raw.resnet18.groups[c.id];
      expect([c.status, c.median_ms, c.min_ms, c.max_ms, c.reason]).toEqual([
        s.statuses[0],
        s.median_ms ?? null,
        s.min_ms ?? null,
        s.max_ms ?? null,
        s.reason ?? null,
      ]);
      expect(c.samples_ms).toBeNull();
    }
  });

  it('upgrades exactness: "bit" stays, true becomes close, absent stays unknown', () => {
    const byId = (id: string) => seed.cells.find((c) => c.id === id)!;
    expect(byId('A/single_module_output/nnsight/resnet18').exact).toBe('bit');
    expect(byId('A/same_site_gradient/captum/resnet18').exact).toBe('close');
    expect(byId('A/single_module_output/raw/resnet18').exact).toBeNull();
    expect(byId('A/single_module_output/hooks/resnet18').exact).toBeUndefined();
  });

  it('round-trips its own format', () => {
    const again = fromJson(
      JSON.parse(JSON.stringify({ ...toJson({ ...seed, origin: 'benchgrid' }), format_version: 1 })),
    );
    expect(again.cells).toEqual(seed.cells.map((c) => ({ ...c })).sort(() => 0));
    expect(again.origin).toBe('benchgrid');
  });

  it('refuses what is not a results file, naming the file', () => {
    const dir = tmpdir();
    expect(() => loadResults(write(dir, 'x.json', '{"a": 1}'))).toThrow(
      /x\.json: not a results file: no subject with "groups" in it/,
    );
    expect(() => loadResults(write(dir, 'y.json', 'nope'))).toThrow(/y\.json: not a results file: invalid JSON/);
    expect(() => loadResults(path.join(dir, 'missing.json'))).toThrow(
      /missing\.json: cannot read the results file \(no such file\)/,
    );
    expect(() => loadResults(write(dir, 'z.json', '{"format_version": 9, "s": {"groups": {}}}'))).toThrow(
      /results format 9 is newer than this benchgrid reads/,
    );
  });

  it("reads a subject's model back, and refuses a hostile one naming the field", () => {
    const withModel = (model: unknown) => {
      const json = JSON.parse(JSON.stringify({ ...toJson({ ...seed, origin: 'benchgrid' }), format_version: 1 }));
      json.resnet18.meta.model = model;
      return () => fromJson(json);
    };
    const good = {
      builder: 'python',
      name: 'models/m.py:build',
      dtype: 'bfloat16',
      weights: { kind: 'state_dict', source: 'w.pt', sha256: `sha256:${'a'.repeat(64)}` },
    };
    expect(withModel(good)().subjects.resnet18.meta?.model).toEqual(good);
    expect(withModel(null)().subjects.resnet18.meta?.model).toBeNull();
    expect(withModel({ ...good, weights: { ...good.weights, sha256: '<img src=x>' } })).toThrow(
      /model\.weights\.sha256.*sha256: and 64 hex digits/,
    );
    expect(withModel({ ...good, dtype: 'int8' })).toThrow(/model\.dtype.*one of float32, bfloat16, float16, float64/);
    expect(withModel({ ...good, weights: { ...good.weights, kind: 'url' } })).toThrow(/model\.weights\.kind/);
    expect(withModel({ ...good, builder: 7 })).toThrow(/model\.builder/);
    expect(withModel('python')).toThrow(/model/);
  });

  it('reads text inputs back as recorded, and refuses hostile counts, lists and digests naming the field', () => {
    const withTokens = (tokens: unknown) => {
      const json = JSON.parse(JSON.stringify({ ...toJson({ ...seed, origin: 'benchgrid' }), format_version: 1 }));
      json.resnet18.meta.model = { builder: 'transformers', name: 'gpt2', dtype: 'float32', weights: null, tokens };
      return () => fromJson(json);
    };
    const good = {
      prompts: 3,
      lengths: [6, 1, 13],
      padded_to: 13,
      padding_side: 'left',
      pad_id: 0,
      tokenizer: 'tok',
      sha256: 'b'.repeat(64),
    };
    expect(withTokens(good)().subjects.resnet18.meta?.model?.tokens).toEqual(good);
    expect(withTokens({ ...good, sha256: '<script>' })).toThrow(/tokens\.sha256.*64 hex digits/);
    expect(withTokens({ ...good, lengths: [6, 0, 13] })).toThrow(/tokens\.lengths\[1\].*from 1/);
    expect(withTokens({ ...good, lengths: 'many' })).toThrow(/tokens\.lengths.*a list/);
    expect(withTokens({ ...good, lengths: new Array(5000).fill(1) })).toThrow(/more than 4,096 prompts/);
    expect(withTokens({ ...good, pad_id: -1 })).toThrow(/tokens\.pad_id/);
    expect(withTokens({ ...good, padded_to: 1e300 })).toThrow(/tokens\.padded_to/);
    expect(withTokens({ ...good, padding_side: 'middle' })).toThrow(/tokens\.padding_side/);
  });
});
