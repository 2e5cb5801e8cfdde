// The resolved set of an environment: every distribution its interpreter imports (name, version, and the
// archive's hash where the installer recorded one), read with importlib.metadata in the environment
// itself, so it is the same whichever installer built it. A layer's set is what it sees: its own
// packages first, then its base's behind them. Recorded in the marker; `env lock` writes it beside the spec.
import { execa } from 'execa';
import { normalisePackage } from '../spec/versions.ts';

/** One installed distribution. */
export interface ResolvedPackage {
  name: string;
  version: string;
  /** `sha256=...` from the installation's direct_url.json (a wheel installed from a file); absent otherwise. */
  hash?: string;
}

// -I: no PYTHONPATH, no user site; .pth files still apply, so a layer sees its base (layered.ts).
const SCRIPT = `
import importlib.metadata as m, json, re
seen = {}
for d in m.distributions():
    name = d.metadata['Name']
    if not name or re.sub(r'[-_.]+', '-', name).lower() in seen:
        continue
    item = {'name': name, 'version': d.version}
    try:
        info = json.loads(d.read_text('direct_url.json') or 'null') or {}
        archive = info.get('archive_info') or {}
        h = archive.get('hash') or next(('%s=%s' % kv for kv in sorted((archive.get('hashes') or {}).items())), None)
        if h:
            item['hash'] = h.replace(':', '=', 1)
    except Exception:
        pass
    seen[re.sub(r'[-_.]+', '-', name).lower()] = item
print(json.dumps(list(seen.values())))
`;

/** What the environment of this interpreter holds, sorted by normalised name. */
export async function resolvedSet(python: string): Promise<ResolvedPackage[]> {
  const r = await execa(python, ['-I', '-c', SCRIPT], { timeout: 120_000 });
  const found = JSON.parse(r.stdout) as ResolvedPackage[];
  const byName = new Map<string, ResolvedPackage>();
  for (const p of found) {
    const name = normalisePackage(p.name);
    if (!byName.has(name)) byName.set(name, { ...p, name });
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** `name==version` lines of a resolved set. */
export function pins(set: ResolvedPackage[]): string[] {
  return set.map((p) => `${p.name}==${p.version}`);
}
