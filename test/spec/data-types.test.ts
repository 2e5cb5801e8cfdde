// The spec's TypeScript types (src/spec/data.ts) and its JSON Schema are one fact written twice; this
// test reads both (the types with the TypeScript compiler) and fails when they disagree on a key, on
// whether it is required, or on the values of an enum.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { expectSameShape, interfaces, schemaAt, withoutPassthrough } from '../schema-types.ts';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/spec.schema.json'), 'utf8'));

/** Interface in data.ts -> the schema object it describes (JSON pointer). */
const PAIRS: Record<string, string> = {
  SpecData: '',
  ProtocolData: '/$defs/protocol',
  ExactnessData: '/$defs/protocol/properties/exactness',
  EnvironmentData: '/$defs/environment',
  SubjectData: '/$defs/subject',
  ModelData: '/$defs/subject/properties/model',
  InputsData: '/$defs/subject/properties/inputs',
  ContractData: '/$defs/contract',
  ToolData: '/$defs/tool',
  GroupData: '/$defs/group',
  ReasonData: '/$defs/reason',
  PageData: '/$defs/page',
  SectionData: '/$defs/section',
  RowData: '/$defs/row',
  EntryData: '/$defs/entry',
  SlurmData: '/$defs/slurm',
};

describe('src/spec/data.ts agrees with schemas/spec.schema.json', () => {
  const types = interfaces('src/spec/data.ts');

  it('describes every schema object it names', () => {
    for (const name of Object.keys(PAIRS)) expect(types.has(name), name).toBe(true);
  });

  it.each(Object.entries(PAIRS))('%s has the keys of %s, required where the schema requires them', (name, pointer) => {
    expectSameShape(types, name, withoutPassthrough(schemaAt(schema, pointer)));
  });
});
