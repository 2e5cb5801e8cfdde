// One seeded generator for everything that must be reproducible from a recorded seed: the compare
// bootstrap (same two files, same intervals), the interleaved schedule (same seed, same order) and the
// order of the pairs inside a paired process.

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator, as published by bryc/code "PRNGs"): uniform numbers in
 * [0, 1) from a 32-bit seed. Small and fast; more than good enough for resampling and for shuffling.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32-bit FNV-1a hash of a string's UTF-16 code units: turns an id (a cell, a process) into a seed. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
