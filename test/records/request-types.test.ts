// The request file's TypeScript types (src/records/request.ts) and schemas/request.schema.json are one fact
// written twice, as src/spec/data.ts and the spec schema are: this test reads the types with the
// TypeScript compiler and fails when they disagree with the schema on a key, on whether it is required,
// or on the values of an enum or string const. It also checks what buildRequest writes against the schema.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runPlan } from '../../src/run/run-plan.ts';
import { buildRequest } from '../../src/run/jobs.ts';
import { validatorFor } from '../../src/spec/schema.ts';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES, ROOT } from '../helpers.ts';
import { expectSameShape, interfaces, schemaAt, withoutPassthrough } from '../schema-types.ts';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/request.schema.json'), 'utf8'));

/** Interface in request.ts -> the schema objects it describes (JSON pointers). */
const PAIRS: [string, string][] = [
  ['CellRequest', ''],
  ['RequestSpec', '/properties/spec'],
  ['RequestCell', '/properties/cell'],
  ['RequestContract', '/$defs/contract'],
  ['RequestParams', '/$defs/contract/properties/params'],
  ['RequestWork', '/$defs/contract/properties/work/anyOf/1'],
  ['RequestSubject', '/$defs/subject'],
  ['RequestModel', '/$defs/subject/properties/model'],
  ['RequestImageInputs', '/$defs/subject/properties/inputs/oneOf/0'],
  ['RequestTokenInputs', '/$defs/subject/properties/inputs/oneOf/1'],
  ['RequestBuilderInputs', '/$defs/subject/properties/inputs/oneOf/2'],
  ['RequestTextInputs', '/$defs/subject/properties/inputs/oneOf/3'],
  ['RequestTool', '/properties/tool'],
  ['RequestAdapter', '/properties/reference/anyOf/1'],
  ['RequestAdapter', '/properties/pairing/anyOf/1/properties/baseline'],
  ['RequestPairing', '/properties/pairing/anyOf/1'],
  ['RequestSettings', '/properties/settings'],
];

describe('src/records/request.ts agrees with schemas/request.schema.json', () => {
  const types = interfaces('src/records/request.ts');

  it('describes every object of the schema, and names no interface the schema lacks', () => {
    expect([...new Set(PAIRS.map(([name]) => name))].sort()).toEqual([...types.keys()].sort());
  });

  it.each(PAIRS)('%s has the keys of %s, required where the schema requires them', (name, pointer) => {
    expectSameShape(types, name, withoutPassthrough(schemaAt(schema, pointer)));
  });

  it('tells a changed schema apart: a key the type lacks, or one it makes optional, fails the comparison', () => {
    const settings = schemaAt(schema, '/properties/settings');
    const extra = { ...settings, properties: { ...settings.properties, gc: {} } };
    expect(() => expectSameShape(types, 'RequestSettings', extra)).toThrow();
    const stricter = { ...settings, required: [...(settings.required ?? []), 'precision'] };
    expect(() => expectSameShape(types, 'RequestSettings', stricter)).toThrow();
  });
});

describe('buildRequest', () => {
  it('writes, for every process of a run plan (timing, memory, A/A, paired), a request the schema accepts', async () => {
    const loaded = await loadSpec(path.join(FIXTURES, 'specs/tiny.yaml'));
    const spec = { ...loaded.spec!, protocol: { ...loaded.spec!.protocol, aa_pairs: 1, memory_runs: 1 } };
    const rp = runPlan({
      spec,
      plan: loaded.plan!,
      manifests: loaded.manifests!,
      flags: { samples: 4, warmups: 0 },
      seed: () => 7,
      selection: { only: null, cells: null },
    });
    const validate = validatorFor('request.schema.json');
    const requests = rp.jobs.map((job) => buildRequest(rp, job));
    for (const r of requests)
      expect(validate(r), `${r.cell.id} ${r.mode} ${r.process_index}: ${JSON.stringify(validate.errors)}`).toBe(true);
    expect(new Set(requests.map((r) => r.mode))).toEqual(new Set(['time', 'memory']));
    expect(requests.some((r) => r.pairing)).toBe(true);
    expect(requests.every((r) => r.settings.samples === 4 && r.settings.warmups === 0)).toBe(true);
  });
});
