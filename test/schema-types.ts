// Reads TypeScript interfaces with the TypeScript compiler and checks them against the JSON Schema objects
// they describe: the same keys, required where the schema requires them, and the same values where the
// schema gives an enum or a string const. A type and its schema are one fact written twice; the tests of
// src/spec/data.ts (spec.schema.json) and src/records/request.ts (request.schema.json) use this.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect } from 'vitest';
import { PROTOCOL_TABLE } from '../src/protocol-table.ts';
import { ROOT } from './helpers.ts';

interface Member {
  optional: boolean;
  /** String literals of a union of literals (or one literal), e.g. 'cpu' | 'cuda'; null for other types. */
  literals: string[] | null;
}

interface SchemaObject {
  properties: Record<string, { enum?: unknown[]; const?: unknown }>;
  required?: string[];
}

function literalsOf(type: ts.TypeNode | undefined): string[] | null {
  if (!type) return null;
  const parts = ts.isUnionTypeNode(type) ? [...type.types] : [type];
  const strings = parts.filter((t) => ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal));
  return strings.length === parts.length
    ? strings.map((t) => ((t as ts.LiteralTypeNode).literal as ts.StringLiteral).text)
    : null;
}

/** The interfaces of a source file (relative to the repository): name -> property -> what the test compares. */
export function interfaces(file: string): Map<string, Map<string, Member>> {
  const full = path.join(ROOT, file);
  const source = ts.createSourceFile(full, fs.readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
  const out = new Map<string, Map<string, Member>>();
  source.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node)) return;
    const members = new Map<string, Member>();
    for (const m of node.members) {
      if (!ts.isPropertySignature(m) || !m.name) continue;
      const name = m.name.getText(source).replace(/^['"]|['"]$/g, '');
      members.set(name, { optional: m.questionToken !== undefined, literals: literalsOf(m.type) });
    }
    out.set(node.name.text, members);
  });
  return out;
}

/** The object a JSON pointer (`/$defs/protocol`, '' for the root) names in a parsed schema. */
export function schemaAt(schema: unknown, pointer: string): SchemaObject {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], schema) as SchemaObject;
}

/** Expects interface `name` to have the keys of the schema object, required alike, enums and string consts alike. */
export function expectSameShape(types: Map<string, Map<string, Member>>, name: string, object: SchemaObject): void {
  const members = types.get(name);
  expect(members, `interface ${name}`).toBeDefined();
  expect([...members!.keys()].sort(), name).toEqual(Object.keys(object.properties).sort());
  const required = [...members!]
    .filter(([, m]) => !m.optional)
    .map(([k]) => k)
    .sort();
  expect(required, `${name}: required keys`).toEqual([...(object.required ?? [])].sort());
  for (const [key, m] of members!) {
    const { enum: values, const: value } = object.properties[key];
    if (values) expect(m.literals, `${name}.${key}: enum`).toEqual(values);
    if (typeof value === 'string') expect(m.literals, `${name}.${key}: const`).toEqual([value]);
  }
}

/**
 * The schema object without the protocol table's passthrough keys: those TypeScript carries from the spec to
 * the request without naming them (src/protocol-table.ts), so no interface declares them.
 */
export function withoutPassthrough(object: SchemaObject): SchemaObject {
  const carried = new Set(PROTOCOL_TABLE.keys.filter((r) => r.passthrough).map((r) => r.key));
  const properties = Object.fromEntries(Object.entries(object.properties).filter(([k]) => !carried.has(k)));
  return {
    ...object,
    properties,
    ...(object.required ? { required: object.required.filter((k) => !carried.has(k)) } : {}),
  };
}
