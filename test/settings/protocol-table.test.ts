// The protocol table (runners/harness/benchgrid_harness/protocol.json) is the one declaration of the spec's
// timing settings: the schemas' blocks are written from it (scripts/gen-protocol.ts), and the defaults,
// the timing flags and the request's settings are read from it. These tests fail when a schema drifts
// from the table, i.e. when a row changed and `npm run gen:protocol` was not run.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCHEMA_BLOCKS, valueSpan, withBlock } from '../../src/protocol-schema.ts';
import { PROTOCOL_TABLE, tableDefaults } from '../../src/protocol-table.ts';
import { SCHEMA_DIR } from '../../src/repository.ts';
import { TIMING_FLAGS, harnessSettings } from '../../src/settings/settings.ts';
import { DEFAULT_PROTOCOL } from '../../src/spec/types.ts';

describe('the schemas are written from the protocol table', () => {
  it.each(SCHEMA_BLOCKS.map((b) => [b.file, b.pointer, b] as const))(
    'schemas/%s %s is what the table writes (npm run gen:protocol)',
    (file, _pointer, block) => {
      const text = fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8');
      expect(withBlock(text, block, PROTOCOL_TABLE)).toBe(text);
    },
  );

  it('fails on a row changed without regenerating: the drift is seen', () => {
    const changed = {
      ...PROTOCOL_TABLE,
      keys: PROTOCOL_TABLE.keys.map((r) => (r.key === 'samples' ? { ...r, maximum: 5 } : r)),
    };
    for (const block of SCHEMA_BLOCKS) {
      const text = fs.readFileSync(path.join(SCHEMA_DIR, block.file), 'utf8');
      expect(withBlock(text, block, changed), block.file).not.toBe(text);
    }
  });

  it('replaces only the block a pointer names, leaving the rest of the text as written', () => {
    const text = '{\n  "a": { "b": [1, 2],   "c": {"d": "x\\"}"} },\n  "e": 3\n}\n';
    const [start, end] = valueSpan(text, '/a/c');
    expect(text.slice(start, end)).toBe('{"d": "x\\"}"}');
    expect(text.slice(...valueSpan(text, '/a/b/1'))).toBe('2');
    expect(() => valueSpan(text, '/a/z')).toThrow(/no \/a\/z/);
  });
});

describe('the orchestrator reads the protocol table', () => {
  it('takes every default from it', () => {
    for (const [key, value] of Object.entries(tableDefaults()))
      expect((DEFAULT_PROTOCOL as unknown as Record<string, unknown>)[key], key).toEqual(value);
  });

  it('builds the timing flags from the keys that have one, in the order of their rank, bounded as the keys are', () => {
    const flagged = PROTOCOL_TABLE.keys.filter((r) => r.flag).sort((a, b) => a.flag!.rank - b.flag!.rank);
    expect(TIMING_FLAGS.map((f) => f.key)).toEqual(flagged.map((r) => r.key));
    expect(TIMING_FLAGS.map((f) => f.flag.split(' ')[0])).toEqual([
      '--processes',
      '--samples',
      '--warmups',
      '--memory-runs',
      '--aa-pairs',
      '--controls',
      '--precision',
    ]);
    for (const f of TIMING_FLAGS.filter((x) => !x.percent)) {
      const row = flagged.find((r) => r.key === f.key)!;
      expect([f.min, f.max], f.key).toEqual([row.minimum, row.maximum]);
    }
  });

  it("hands the harness every key the table marks for it, and only those, under the protocol's own names", () => {
    const settings = harnessSettings(DEFAULT_PROTOCOL) as unknown as Record<string, unknown>;
    expect(Object.keys(settings)).toEqual(PROTOCOL_TABLE.keys.filter((r) => r.harness).map((r) => r.key));
    expect(settings.samples).toBe(DEFAULT_PROTOCOL.samples);
  });
});
