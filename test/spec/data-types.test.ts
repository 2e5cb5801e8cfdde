// The spec's TypeScript types (src/spec/data.ts) and its JSON Schema are one fact written twice; this
// test reads both (the types with the TypeScript compiler) and fails when they disagree on a key, on
// whether it is required, or on the values of an enum.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';

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

interface Member {
  optional: boolean;
  /** String literals of a union of literals, e.g. 'cpu' | 'cuda'; null for other types. */
  literals: string[] | null;
}

function interfaces(): Map<string, Map<string, Member>> {
  const file = path.join(ROOT, 'src/spec/data.ts');
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out = new Map<string, Map<string, Member>>();
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node)) return;
    const members = new Map<string, Member>();
    for (const m of node.members) {
      if (!ts.isPropertySignature(m) || !m.name) continue;
      const name = m.name.getText(source).replace(/^['"]|['"]$/g, '');
      const type = m.type;
      const literals = type && ts.isUnionTypeNode(type) && type.types.every((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal))
        ? type.types.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text)
        : null;
      members.set(name, { optional: m.questionToken !== undefined, literals });
    }
    out.set(node.name.text, members);
  });
  return out;
}

function at(pointer: string): { properties: Record<string, { enum?: string[] }>; required?: string[] } {
  return pointer.split('/').slice(1).reduce((o, k) => o[k], schema);
}

describe('src/spec/data.ts agrees with schemas/spec.schema.json', () => {
  const types = interfaces();

  it('describes every schema object it names', () => {
    for (const name of Object.keys(PAIRS)) expect(types.has(name), name).toBe(true);
  });

  it.each(Object.entries(PAIRS))('%s has the keys of %s, required where the schema requires them', (name, pointer) => {
    const members = types.get(name)!;
    const object = at(pointer);
    expect([...members.keys()].sort(), name).toEqual(Object.keys(object.properties).sort());
    const required = [...members].filter(([, m]) => !m.optional).map(([k]) => k).sort();
    expect(required, `${name}: required keys`).toEqual([...(object.required ?? [])].sort());
    for (const [key, m] of members) {
      const values = object.properties[key].enum;
      if (values) expect(m.literals, `${name}.${key}: enum`).toEqual(values);
    }
  });
});
