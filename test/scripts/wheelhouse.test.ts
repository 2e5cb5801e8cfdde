// scripts/gpu-check/wheelhouse.py: what a bundle's cells import, followed through each wheel's METADATA,
// minus what the target machine has. Offline: pip downloads from a local folder of tiny wheels made here.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tmpdir, write } from '../helpers.ts';

const SCRIPT = path.join(ROOT, 'scripts/gpu-check/wheelhouse.py');

// Writes a pure wheel with the given Requires-Dist lines (a wheel is a zip with METADATA, WHEEL, RECORD).
const MAKE_WHEEL = `
import sys, zipfile
out, name, version, *requires = sys.argv[1:]
dist = f"{name.replace('-', '_')}-{version}"
with zipfile.ZipFile(f"{out}/{dist}-py3-none-any.whl", "w") as z:
    z.writestr(f"{name.replace('-', '_')}/__init__.py", "")
    meta = f"Metadata-Version: 2.1\\nName: {name}\\nVersion: {version}\\n" + "".join(f"Requires-Dist: {r}\\n" for r in requires)
    z.writestr(f"{dist}.dist-info/METADATA", meta + "\\n")
    z.writestr(f"{dist}.dist-info/WHEEL", "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n")
    z.writestr(f"{dist}.dist-info/RECORD", "")
`;

let index: string;

async function wheel(name: string, version: string, ...requires: string[]) {
  await execa('python3', ['-c', MAKE_WHEEL, index, name, version, ...requires]);
}

/** A bundle with one job per library (only what wheelhouse.py reads: jobs, environments, requests). */
function bundle(libraries: (string | null)[], requirements: string[]): string {
  const dir = tmpdir('benchgrid-wheelhouse-');
  const jobs = libraries.map((library, i) => {
    write(dir, `requests/c${i}.json`, JSON.stringify({ tool: { id: `t${i}`, library } }));
    return { key: `c${i}#time#0`, environment: 'main', request: `requests/c${i}.json` };
  });
  write(
    dir,
    'bundle.json',
    JSON.stringify({ format: 1, jobs, environments: { main: { requirements }, other: { requirements: [] } } }),
  );
  return dir;
}

function run(dir: string, args: string[]) {
  // No index: pip sees only the local folder, so nothing is fetched from a network.
  const env = { ...process.env, PIP_NO_INDEX: '1', PIP_FIND_LINKS: index, PIP_CONFIG_FILE: '/dev/null' };
  return execa('python3', [SCRIPT, dir, ...args], { reject: false, env, extendEnv: false, timeout: 120_000 });
}

beforeAll(async () => {
  index = tmpdir('benchgrid-wheels-');
  await wheel(
    'bgt-tool',
    '1.0',
    'bgt-dep>=2',
    'torch>=2.12',
    'numpy',
    'bgt-extra; extra == "viz"',
    'bgt-old; python_version < "3.0"',
  );
  await wheel('bgt-tool', '2.0');
  await wheel('bgt-dep', '2.1', 'bgt-leaf');
  await wheel('bgt-leaf', '0.3');
  await wheel('bgt-extra', '1.0');
  await wheel('bgt-old', '1.0');
});

describe('wheelhouse.py', () => {
  it('carries the pinned library and the dependencies the machine lacks, and keeps the machine torch whatever its version', async () => {
    const dir = bundle(['bgt-tool', null, 'torchvision'], ['torch==2.14.1', 'bgt-tool==1.0']);
    const machine = write(dir, 'machine.txt', '# the target\ntorch==2.11.0\ntorchvision==0.26.0\nnumpy\n');
    const r = await run(dir, ['--machine', machine, '--python-version', '3.12']);
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'wheelhouse/wheelhouse.json'), 'utf8'));
    expect(
      Object.fromEntries(Object.entries(summary.carried).map(([k, v]) => [k, (v as { version: string }).version])),
    ).toEqual({ 'bgt-tool': '1.0', 'bgt-dep': '2.1', 'bgt-leaf': '0.3' });
    expect(summary.present.torch.required).toEqual(['torch>=2.12']);
    expect(Object.keys(summary.present).sort()).toEqual(['numpy', 'torch', 'torchvision']);
    expect(summary.requirements).toEqual(['bgt-tool==1.0']);
    expect(
      fs
        .readFileSync(path.join(dir, 'wheelhouse/requirements.txt'), 'utf8')
        .split('\n')
        .filter((l) => l && !l.startsWith('#')),
    ).toEqual(['bgt-tool==1.0']);
    expect(
      fs
        .readdirSync(path.join(dir, 'wheelhouse'))
        .filter((f) => f.endsWith('.whl'))
        .sort(),
    ).toEqual(['bgt_dep-2.1-py3-none-any.whl', 'bgt_leaf-0.3-py3-none-any.whl', 'bgt_tool-1.0-py3-none-any.whl']);
  });

  it('carries nothing when the machine already has every library', async () => {
    const dir = bundle(['bgt-tool'], ['bgt-tool==1.0']);
    const machine = write(dir, 'machine.txt', 'bgt-tool==1.0\n');
    const r = await run(dir, ['--machine', machine]);
    expect(r.exitCode, r.stderr).toBe(0);
    const summary = JSON.parse(fs.readFileSync(path.join(dir, 'wheelhouse/wheelhouse.json'), 'utf8'));
    expect(summary).toMatchObject({ carried: {}, requirements: [], bytes: 0 });
  });

  it('refuses a bad machine list, an unknown environment and a folder that is not a bundle, with exit 2', async () => {
    const dir = bundle(['bgt-tool'], []);
    const bad = await run(dir, ['--machine', write(dir, 'bad.txt', 'torch\nnot a name!\n')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/bad\.txt:2: 'not a name!' is not NAME or NAME==VERSION\. Fix that line\./);
    const env = await run(dir, ['--machine', write(dir, 'ok.txt', 'torch\n'), '--environment', 'nope']);
    expect(env.exitCode).toBe(2);
    expect(env.stderr).toMatch(/environment\(s\) nope not in this bundle \(it has main, other\)/);
    const notBundle = await run(index, ['--machine', write(dir, 'ok2.txt', 'torch\n')]);
    expect(notBundle.exitCode).toBe(2);
    expect(notBundle.stderr).toMatch(/no bundle.json/);
  });
});
