// `--only` globs: picomatch's syntax for what cell ids need (`*`, `?`, classes, `**`), `{a,b}`
// alternatives that a comma inside them does not split, and a cost bounded by glob length times id
// length, whatever the glob.
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.ts';
import { compileGlob, onlyFilter, splitGlobs } from '../../src/plan/only.ts';
import { cli, tmpdir } from '../helpers.ts';
import { specWithContract } from '../security/hostile-files.ts';

const ids = [
  'A/single_module_output/raw/resnet18',
  'A/single_module_output/hooks/resnet18',
  'A/matched_retained/hooks/resnet18',
  'A/matched_retained/nnsight/resnet18',
  'B/raw_forward/reference/resnet18',
];

describe('--only alternatives', () => {
  it("'A/*/{raw,hooks}/*' is one glob, not split at its comma", () => {
    expect(splitGlobs('A/*/{raw,hooks}/*')).toEqual(['A/*/{raw,hooks}/*']);
    expect(ids.filter(onlyFilter('A/*/{raw,hooks}/*', ids))).toEqual(ids.slice(0, 3));
  });

  it('top-level commas still separate globs, and alternatives nest', () => {
    expect(splitGlobs('A/*/{raw,hooks}/*,B/**')).toEqual(['A/*/{raw,hooks}/*', 'B/**']);
    expect(ids.filter(onlyFilter('A/{single_module_output/{raw,hooks},matched_retained/nnsight}/*', ids))).toEqual([
      ids[0],
      ids[1],
      ids[3],
    ]);
    expect(ids.filter(onlyFilter('{A/matched_retained,B/raw_forward}/*/*', ids))).toEqual([ids[2], ids[3], ids[4]]);
  });

  it('an unclosed or unopened brace is refused with where it is', () => {
    expect(() => onlyFilter('A/{raw,hooks/*', ids)).toThrow(UserError);
    expect(() => onlyFilter('A/{raw,hooks/*', ids)).toThrow(/the '\{' at character 3 is not closed/);
    expect(() => onlyFilter('A/raw}/*', ids)).toThrow(/a '\}' at character 6 closes no '\{'/);
    expect(() => onlyFilter(`${'{'.repeat(20)}A${'}'.repeat(20)}`, ids)).toThrow(/deeper than 16 levels/);
  });
});

describe('--only matches as picomatch did on the globs cell ids need', () => {
  it.each([
    ['A/*/hooks/*', [1, 2]],
    ['A/*/hooks/*,B/**', [1, 2, 4]],
    ['**/resnet18', [0, 1, 2, 3, 4]],
    ['A/**/resnet18', [0, 1, 2, 3]],
    ['?/raw_forward/*/*', [4]],
    ['A/*/[hn]*/*', [1, 2, 3]],
    ['A/*/[!h]*/*', [0, 3]],
    ['*', []],
    ['A/single_module_output/raw/resnet1?', [0]],
    ['A\\/*\\/raw/*', [0]],
  ])('%s', (glob, expected) => {
    const matched = ids.flatMap((id, i) => (splitGlobs(glob).some((g) => compileGlob(g)(id)) ? [i] : []));
    expect(matched).toEqual(expected);
  });

  it('agrees with picomatch on 2,000 random globs of *, ?, ** and classes over four-part ids (fixed seed)', () => {
    // `[^a]` only: picomatch 4 reads `[!a]` as the class of '!' and 'a', where glob(7) negates.
    const part = fc.constantFrom('*', '?', 'a', 'b', '_', '[ab]', '[^a]', '**', 'ab*');
    const segment = fc.array(part, { minLength: 1, maxLength: 3 }).map((xs) => xs.join(''));
    const glob = fc.array(segment, { minLength: 1, maxLength: 4 }).map((xs) => xs.join('/'));
    // Ids have four parts, as cell ids do (picomatch's `x/**` also matches `x`, a shape no id has).
    const id = fc.array(fc.stringMatching(/^[ab_]{1,4}$/), { minLength: 4, maxLength: 4 }).map((xs) => xs.join('/'));
    fc.assert(
      fc.property(glob, id, (g, s) => {
        // picomatch reads `**` inside a segment (`a**`) as `*` too; a lone `**` segment spans segments.
        expect(compileGlob(g)(s), `${g} on ${s}`).toBe(picomatch(g, { dot: true })(s));
      }),
      { seed: 20261130, numRuns: 2_000 },
    );
  });
});

describe('--only costs at most glob length times id length', () => {
  it('a backtracking glob on a 2,000-character id answers (picomatch took 87 s on 60 characters)', () => {
    const glob = `A/${'*a'.repeat(500)}b/*/*`;
    expect(compileGlob(glob)(`A/${'a'.repeat(2_000)}/x/y`)).toBe(false);
    expect(compileGlob(glob)(`A/${'a'.repeat(600)}b/x/y`)).toBe(true);
  });

  it('plan with such a glob on a spec with a long contract name exits 2 in words', async () => {
    const dir = tmpdir('benchgrid-only-');
    const long = 'a'.repeat(120);
    const spec = specWithContract(dir, 'long.yaml', long, 'long');
    const r = await cli(['plan', spec, '--only', `A/${'*a'.repeat(12)}b/*/*`]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/--only 'A\/\*a\*a.*b\/\*\/\*' matches no cell/);
    const ok = await cli(['plan', spec, '--only', `A/*/{raw,hooks}/*`, '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(
      JSON.parse(ok.stdout).cells.filter((c: { selected?: boolean }) => c.selected !== false).length,
    ).toBeGreaterThan(0);
  }, 60_000);
});
