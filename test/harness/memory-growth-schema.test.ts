// The timing record's `memory_growth` (benchgrid_harness/memory.py) is one fact written twice: its
// TypeScript type (src/records/record.ts) and schemas/result.schema.json must name the same keys, required
// alike; what the harness writes is checked against the schema by result-schema.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.ts';
import { expectSameShape, interfaces, schemaAt } from '../schema-types.ts';

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas/result.schema.json'), 'utf8'));

describe('MemoryGrowthRecord agrees with the result schema', () => {
  it('has the keys of $defs/memory_growth, required where the schema requires them', () => {
    expectSameShape(
      interfaces('src/records/record.ts'),
      'MemoryGrowthRecord',
      schemaAt(schema, '/$defs/memory_growth'),
    );
  });

  it('is an optional part of every timing record, so results written before it still validate', () => {
    const timing = schemaAt(schema, '/$defs/timing');
    expect(Object.keys(timing.properties)).toContain('memory_growth');
    expect(timing.required).not.toContain('memory_growth');
  });
});
