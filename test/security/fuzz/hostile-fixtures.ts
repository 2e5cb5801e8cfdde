// Shared by the fuzz suite's hostile classes: the bound on one input's time, the names of Object.prototype,
// the hostile text and extreme numbers the corpora are made of, and the state of the repository that no
// input may change.
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { UserError } from '../../../src/errors.ts';
import { ROOT } from '../../helpers.ts';

/** The longest one input may take before it counts as a hang (a generous bound on a busy two-core machine). */
export const BOUND_MS = 20_000;

/** Runs `f` on an input; a refusal (UserError) is fine, anything else thrown fails, and so does a run past BOUND_MS. */
export async function bounded<T>(what: string, f: () => T | Promise<T>): Promise<T | undefined> {
  const t0 = performance.now();
  let value: T | undefined;
  try {
    value = await f();
  } catch (error) {
    if (!(error instanceof UserError)) throw new Error(`${what}: ${(error as Error).stack}`);
  }
  const ms = performance.now() - t0;
  if (ms > BOUND_MS) throw new Error(`${what}: took ${Math.round(ms)} ms, past the ${BOUND_MS} ms bound of one input`);
  return value;
}

/** Names of Object.prototype, which a name looked up in a plain object could reach; each may be a spec id too. */
export const PROTO = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
];
/** Characters a hostile text is made of: line breaks, escapes, markup, markdown, bidi, NUL, BOM. */
export const HOSTILE_CHARS = [
  '\n',
  '\r',
  '\r\n',
  '\u001b[2J',
  '\u009b',
  '\u0000',
  '\ufeff',
  '\u202e',
  '\u2028',
  '<!--',
  '<img src=https://evil.example/i.png>',
  '<script>',
  '![i](https://evil.example/i.png)',
  '[l](https://evil.example)',
  '@octocat',
  '`',
  '|',
  '#',
  '::warning file=a.yaml::FORGED',
  '##[error]',
  '%0A',
  '$&',
  'a',
  ' ',
];
/** A short hostile text: one to eight of HOSTILE_CHARS. */
export const hostileText = fc
  .array(fc.constantFrom(...HOSTILE_CHARS), { minLength: 1, maxLength: 8 })
  .map((xs) => xs.join(''));
/** Numbers at the edges of what arithmetic and the schemas allow. */
export const EXTREME = [
  0,
  -0,
  -1,
  1e308,
  -1e308,
  5e-324,
  Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  1e-7,
  86_400_001,
  1e10,
  0.5,
  3,
];

/** The repository's top level and its results/ folder: nothing here may write there. */
export function repoState(): string {
  const results = path.join(ROOT, 'results');
  return [...fs.readdirSync(ROOT), ...(fs.existsSync(results) ? fs.readdirSync(results) : [])].sort().join('\n');
}
