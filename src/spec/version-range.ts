// Release numbers and ranges as the package index writes them (the PEP 440 subset that releases use). Pure.

/** The numeric release of a version ('2.35.4' -> [2, 35, 4]); a pre/post/local suffix is kept as text. */
interface Parsed {
  release: number[];
  suffix: string;
}

function parse(v: string): Parsed {
  const m = v.trim().match(/^v?(\d+(?:\.\d+)*)(.*)$/);
  if (!m) return { release: [], suffix: v };
  return { release: m[1].split('.').map(Number), suffix: m[2] };
}

/** Orders two versions: negative when a is older. Pre-releases (a/b/rc/dev) sort before their release. */
export function compareVersions(a: string, b: string): number {
  const x = parse(a);
  const y = parse(b);
  const n = Math.max(x.release.length, y.release.length);
  for (let i = 0; i < n; i++) {
    const d = (x.release[i] ?? 0) - (y.release[i] ?? 0);
    if (d !== 0) return d;
  }
  const pre = (s: string) => /^[.-]?(a|b|rc|dev|alpha|beta)/i.test(s);
  if (x.suffix === y.suffix) return 0;
  if (pre(x.suffix) !== pre(y.suffix)) return pre(x.suffix) ? -1 : 1;
  return x.suffix < y.suffix ? -1 : 1;
}

/** Whether `version` satisfies a range such as '>=2.33,<2.35' (a bare version means ==). */
export function satisfies(version: string, range: string): boolean {
  return range
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .every((clause) => {
      const m = clause.match(/^(==|!=|<=|>=|<|>)?\s*(.+)$/);
      if (!m) return false;
      const d = compareVersions(version, m[2]);
      switch (m[1] ?? '==') {
        case '==':
          return d === 0;
        case '!=':
          return d !== 0;
        case '<=':
          return d <= 0;
        case '>=':
          return d >= 0;
        case '<':
          return d < 0;
        default:
          return d > 0;
      }
    });
}
