// The pip (and setuptools) wheels that CPython ships for `ensurepip`, which `python -m venv` installs into
// every new environment. `python -m venv` spends about 3 s of a build on it (ensurepip runs pip in a
// subprocess that installs and compiles pip itself); a venv made `--without-pip` takes 0.05 s, and uv
// installs the same wheels into it in a fraction of a second. The environment ends up with the very pip
// `python -m venv` gives (the interpreter's own, no download, no index): layers, the index check and the
// bundle's set-up use it.
import fs from 'node:fs';
import { execa } from 'execa';

// ensurepip's own list of what it installs and where each wheel lies: `_get_packages()` (3.11+, which also
// knows a distribution's wheel directory, Debian's /usr/share/python-wheels) or `_PROJECTS` (3.10).
const FIND = `
import json, os, ensurepip
d = os.path.join(os.path.dirname(ensurepip.__file__), "_bundled")
if hasattr(ensurepip, "_get_packages"):
    ps = [p.wheel_path or os.path.join(d, p.wheel_name) for p in ensurepip._get_packages().values()]
else:
    ps = [os.path.join(d, "%s-%s-py3-none-any.whl" % (n, v)) for n, v, *_ in ensurepip._PROJECTS]
print(json.dumps(ps))
`;

/** The interpreter's bundled wheels, and pip's among them; null where it has none we can find (then venv's own way). */
export async function bundledWheels(interpreter: string): Promise<{ pip: string; all: string[] } | null> {
  const r = await execa(interpreter, ['-I', '-c', FIND], { reject: false, timeout: 30_000 });
  if (r.exitCode !== 0) return null;
  let wheels: unknown;
  try {
    wheels = JSON.parse(r.stdout);
  } catch {
    return null;
  }
  if (!Array.isArray(wheels) || wheels.some((w) => typeof w !== 'string' || !fs.existsSync(w))) return null;
  const all = wheels as string[];
  const pip = all.find((w) => /(^|\/)pip-[^/]*\.whl$/.test(w));
  return pip ? { pip, all } : null;
}
