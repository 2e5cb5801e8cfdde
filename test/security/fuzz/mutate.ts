// Mutations of valid documents for the fuzz suite: a few edits at random places of a known-good
// spec, results file or bundle manifest, with values a hostile author would try.
import fc from 'fast-check';

/** The seed of every fuzz property: fixed so that a failure reproduces; BENCHGRID_FUZZ_SEED overrides it. */
export const FUZZ_SEED = Number(process.env.BENCHGRID_FUZZ_SEED ?? 20261130);

/** Values a hostile document would hold: escapes out of a directory, control characters, huge numbers. */
const HOSTILE: unknown[] = [
  '../../../../etc/passwd',
  '/etc/shadow',
  'debug\ntouch PWNED',
  '\u001b[2J\u001b]0;x\u0007',
  '$&$1$$',
  '</script><script>alert(1)</script>',
  '--index-url http://evil.example',
  '-r /etc/passwd',
  'A__x',
  'a/b/c/d',
  '',
  ' ',
  '~',
  '\u0000',
  1e10,
  1e308,
  -1,
  0,
  0.5,
  -0,
  2 ** 53,
  null,
  true,
  false,
  [],
  {},
  [null],
  { groups: null },
  'x'.repeat(5_000),
  // The second round's classes: names of Object.prototype, text for every sink, extreme numbers, long names.
  'constructor',
  'toString',
  '__proto__',
  'hasOwnProperty',
  'x\n::warning file=a::FORGED',
  '##[error]FORGED',
  '<!-- hide',
  '@octocat',
  '![i](https://evil.example/i.png)',
  '<img src=https://evil.example/i.png>',
  'a\u202eb',
  '\ufeffa',
  'a\r\nb',
  5e-324,
  -1e308,
  1e-7,
  86_400_001,
  'y'.repeat(300),
];

/** Keys a hostile document would use: names of Object.prototype, a line break, a long name. */
const HOSTILE_KEYS = [
  'constructor',
  'toString',
  '__proto__',
  'valueOf',
  'k\n::warning::FORGED',
  'A/x/__proto__/y',
  'z'.repeat(300),
];

const value = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 2, arbitrary: fc.anything({ maxDepth: 2, maxKeys: 3, withNullPrototype: false }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** One edit: at the n-th value of the document, replace it, delete it, put a copy of another there, or rename its key. */
export type Edit = { at: number; op: 'replace' | 'delete' | 'copy' | 'rename'; from: number; value: unknown };

/** 1 to 4 edits. */
export const edits = fc.array(
  fc.record({ at: fc.nat(), op: fc.constantFrom('replace', 'delete', 'copy', 'rename'), from: fc.nat(), value }),
  { minLength: 1, maxLength: 4 },
) as fc.Arbitrary<Edit[]>;

/** Every (parent, key) of a document, in a fixed order, found without recursion. */
function places(doc: unknown): [Record<string, unknown> | unknown[], string | number][] {
  const out: [Record<string, unknown> | unknown[], string | number][] = [];
  const stack: unknown[] = [doc];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v))
      v.forEach((x, i) => {
        out.push([v, i]);
        stack.push(x);
      });
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push([v as Record<string, unknown>, k]);
        stack.push(x);
      }
  }
  return out;
}

/** A copy of `doc` with the edits applied. */
export function applyEdits<T>(doc: T, list: Edit[]): T {
  const copy = structuredClone(doc);
  for (const e of list) {
    const all = places(copy);
    if (all.length === 0) break;
    const [parent, key] = all[e.at % all.length];
    const get = (p: typeof parent, k: string | number) => (Array.isArray(p) ? p[k as number] : p[k as string]);
    const set = (p: typeof parent, k: string | number, v: unknown) => {
      if (Array.isArray(p)) p[k as number] = v;
      else p[k as string] = v;
    };
    if (e.op === 'rename') {
      if (Array.isArray(parent)) continue;
      // The key becomes a hostile name, kept as an own key (`__proto__` included), in its place.
      const name = HOSTILE_KEYS[e.from % HOSTILE_KEYS.length];
      const entries = Object.entries(parent).map(([k, v]) => [k === key ? name : k, v] as const);
      for (const k of Object.keys(parent)) delete parent[k];
      for (const [k, v] of entries)
        Object.defineProperty(parent, k, { value: v, enumerable: true, configurable: true, writable: true });
    } else if (e.op === 'delete') {
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete parent[key as string];
    } else if (e.op === 'copy') {
      const [p2, k2] = all[e.from % all.length];
      set(parent, key, structuredClone(get(p2, k2)));
    } else {
      set(parent, key, e.value);
    }
  }
  return copy;
}
