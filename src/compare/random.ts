// Seeded randomness for the bootstrap, so the same two files always give the same intervals.

export { mulberry32 } from '../util/prng.ts';

/** 32-bit FNV-1a hash of a string's UTF-16 code units: turns a cell id into a per-cell seed. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
