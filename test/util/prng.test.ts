import { describe, expect, it } from 'vitest';
import { fnv1a, mulberry32 } from '../../src/util/prng.ts';

describe('mulberry32', () => {
  // Expected values from a Python transcription of bryc's reference mulberry32 with explicit 32-bit
  // arithmetic (imul = (a*b) & 0xffffffff), first three outputs per seed.
  it.each([
    [0, [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]],
    [1, [0.6270739405881613, 0.002735721180215478, 0.5274470399599522]],
    [42, [0.6011037519201636, 0.44829055899754167, 0.8524657934904099]],
    [0xdeadbeef, [0.9413696140982211, 0.26719574979506433, 0.772033357527107]],
  ])('gives the reference sequence for seed %i', (seed, expected) => {
    const next = mulberry32(seed);
    expect([next(), next(), next()]).toEqual(expected);
  });

  it('stays in [0, 1)', () => {
    const next = mulberry32(7);
    const values = Array.from({ length: 10_000 }, next);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
  });
});

describe('fnv1a', () => {
  // The first three are the FNV-1a 32-bit test vectors (offset basis, "a", "foobar").
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
    ['A/single_module_output/raw/resnet18', 295604840],
  ])('hashes %j', (text, expected) => {
    expect(fnv1a(text)).toBe(expected);
  });
});
