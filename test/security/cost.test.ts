// Work that input drives is linear in the input or bounded by a documented limit: the spec loader's
// duplicate-key check and `extends` merge (limits over the whole chain, not per file), YAML aliases,
// and compare's bootstrap. These inputs took minutes (or never finished) when the work was quadratic;
// each test's own time-out is what bounds them here, no timing is asserted.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { FIXTURES, tmpdir, write } from '../helpers.ts';

let dir: string;
beforeAll(() => {
  dir = tmpdir('benchgrid-cost-');
  fs.copyFileSync(path.join(FIXTURES, 'specs/tiny.yaml'), path.join(dir, 'tiny.yaml'));
});

/** A block mapping of `n` keys, indented, for a contract's free-form `params`. */
function params(n: number, prefix: string, indent = '      '): string {
  let out = '';
  for (let i = 0; i < n; i++) out += `${indent}${prefix}${i}: ${i}\n`;
  return out;
}

/** A spec extending `base` whose contract `single_module_output` gets `n` parameters. */
function wide(name: string, base: string, n: number, prefix: string): string {
  return write(
    dir,
    name,
    `benchgrid: 1\nextends: ${base}\ncontracts:\n  single_module_output:\n    params:\n${params(n, prefix)}`,
  );
}

describe('the spec loader is linear in the size of the spec', () => {
  it('a mapping of 45,000 keys loads (the duplicate-key check was quadratic: 40 s)', async () => {
    const loaded = await loadSpec(wide('wide.yaml', 'tiny.yaml', 45_000, 'k'));
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(loaded.spec!.contracts.single_module_output.params)).toHaveLength(45_000);
  }, 60_000);

  it('a duplicate among them is still found, at the second one', async () => {
    const file = write(
      dir,
      'dup-wide.yaml',
      `benchgrid: 1\nextends: tiny.yaml\ncontracts:\n  single_module_output:\n    params:\n${params(30_000, 'k')}      k17: again\n`,
    );
    const loaded = await loadSpec(file);
    const [e] = loaded.diagnostics;
    expect(e.code).toBe('duplicate-key');
    expect(e.line).toBe(6 + 30_000);
    expect(e.message).toMatch(/'k17' appears twice in this mapping/);
  }, 60_000);

  it('extends merging two specs of 24,000 keys each loads (the merge was quadratic)', async () => {
    // A key and its value are two values: 96,000 of the chain's 100,000.
    wide('half-1.yaml', 'tiny.yaml', 24_000, 'a');
    const loaded = await loadSpec(wide('half-2.yaml', 'half-1.yaml', 24_000, 'b'));
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(Object.keys(loaded.spec!.contracts.single_module_output.params)).toHaveLength(48_000);
    // Positions still come from the file each value came from.
    expect(loaded.spec!.file).toMatch(/half-2\.yaml$/);
  }, 60_000);

  it('a chain of four specs of 45,000 keys each is refused by the chain-wide limit (it ran for more than 15 minutes)', async () => {
    wide('chain-1.yaml', 'tiny.yaml', 45_000, 'a');
    wide('chain-2.yaml', 'chain-1.yaml', 45_000, 'b');
    wide('chain-3.yaml', 'chain-2.yaml', 45_000, 'c');
    const loaded = await loadSpec(wide('chain-4.yaml', 'chain-3.yaml', 45_000, 'd'));
    expect(loaded.spec).toBeUndefined();
    const codes = loaded.diagnostics.map((d) => d.code);
    expect(codes).toContain('too-large');
    const e = loaded.diagnostics.find((d) => d.code === 'too-large')!;
    expect(e.message).toMatch(
      /more than 100,000 values once its aliases are expanded, together with the specs that extend it/,
    );
  }, 60_000);

  it('a chain longer than 32 specs is refused', async () => {
    write(dir, 'link-0.yaml', fs.readFileSync(path.join(dir, 'tiny.yaml'), 'utf8'));
    for (let i = 1; i <= 40; i++) write(dir, `link-${i}.yaml`, `benchgrid: 1\nextends: link-${i - 1}.yaml\n`);
    const loaded = await loadSpec(path.join(dir, 'link-40.yaml'));
    expect(loaded.spec).toBeUndefined();
    expect(loaded.diagnostics.map((d) => d.message).join('\n')).toMatch(/extends more than 32 specs deep/);
  });

  it('two megabytes in each of four files is refused as more than 2 MB in all', async () => {
    const filler = `# ${'x'.repeat(1_000)}\n`.repeat(1_900);
    write(dir, 'big-1.yaml', fs.readFileSync(path.join(dir, 'tiny.yaml'), 'utf8') + filler);
    write(dir, 'big-2.yaml', `benchgrid: 1\nextends: big-1.yaml\n${filler}`);
    const loaded = await loadSpec(write(dir, 'big-3.yaml', `benchgrid: 1\nextends: big-2.yaml\n${filler}`));
    expect(loaded.spec).toBeUndefined();
    expect(loaded.diagnostics.map((d) => d.message).join('\n')).toMatch(
      /hold [\d.]+ MB together; a spec with the specs it extends may be at most 2 MB/,
    );
  });

  it('60,000 aliases of one scalar are refused by count (each was resolved by a walk of the whole document: minutes)', async () => {
    const file = write(
      dir,
      'aliases.yaml',
      `benchgrid: 1\nname: al\nx-a: &x 1\nx-l: [${new Array(60_000).fill('*x').join(',')}]\n`,
    );
    const loaded = await loadSpec(file);
    const [e] = loaded.diagnostics;
    expect(e.code).toBe('too-large');
    expect(e.message).toMatch(/more than 1,000 aliases/);
  }, 60_000);
});
