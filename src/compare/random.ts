// Seeded randomness for the bootstrap, so the same two files always give the same intervals.

export { fnv1a, mulberry32 } from '../util/prng.ts';
