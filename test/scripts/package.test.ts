// The npm package (package.json `files`, issue 41): what `npm pack` ships is what the installed CLI reads at
// run time (dist/, the runners without their tests, the schemas, the specs, the docs) and nothing of the
// repository's own (test/, bench/, .ci, scripts/, src/, Python caches). npm pack also takes untracked files
// that match `files`, so the checks are on patterns and on the tracked files, never on a count.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, tmpdir, write } from '../helpers.ts';

/** The paths `npm pack` would put in the package of the project at DIR (no scripts run: nothing is built). */
async function packed(dir: string): Promise<string[]> {
  const r = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: dir,
    env: { NO_COLOR: '1', npm_config_loglevel: 'error' },
  });
  const [pack] = JSON.parse(r.stdout) as { files: { path: string }[] }[];
  return pack.files.map((f) => f.path.split(path.sep).join('/'));
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The entry point alone in a new directory, with a dist/cli.js that prints `dist`; returns the directory. */
function plantedEntryPoint(prefix: string): string {
  const dir = tmpdir(prefix);
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.copyFileSync(path.join(ROOT, 'bin/benchgrid.js'), path.join(dir, 'bin/benchgrid.js'));
  write(dir, 'package.json', '{ "type": "module" }\n');
  write(dir, 'dist/cli.js', "console.log('dist');\n");
  return dir;
}

/** What must never ship, wherever it lies. */
const FORBIDDEN: [string, RegExp][] = [
  ['test/', /^test\//],
  ['bench/', /^bench\//],
  ['.ci', /^\.ci(\/|$)/],
  ['.github', /^\.github\//],
  ['src/', /^src\//],
  ['scripts/', /^scripts\//],
  ['__pycache__', /(^|\/)__pycache__\//],
  ['*.pyc', /\.pyc$/],
  ['runners/**/tests', /(^|\/)runners\/(.+\/)?tests\//],
];

const offending = (files: string[]) =>
  FORBIDDEN.flatMap(([name, re]) => files.filter((f) => re.test(f)).map((f) => `${name}: ${f}`));

describe('the npm package', () => {
  let files: string[];
  beforeAll(async () => {
    files = await packed(ROOT);
  });

  it('ships no tests, benchmarks, CI files, sources or Python caches', () => {
    expect(offending(files)).toEqual([]);
  });

  it('ships the built CLI its bin runs, and dist/ is built by prepack', () => {
    // dist/ is not tracked: `npm ci` builds it (prepare) before the tests run.
    expect(
      fs.existsSync(path.join(ROOT, 'dist/cli.js')),
      'dist/cli.js is missing: run `npm run build` (npm ci does)',
    ).toBe(true);
    for (const bin of Object.values(pkg.bin)) expect(files).toContain(bin);
    expect(files).toEqual(expect.arrayContaining(['dist/cli.js', 'dist/repository.js', 'package.json', 'README.md']));
    expect(pkg.scripts.prepack).toMatch(/tsc -p tsconfig\.build\.json/);
    expect(pkg.scripts.prepare).toMatch(/tsc -p tsconfig\.build\.json/);
  });

  it('ships every tracked file of runners/ (but their tests), schemas/, specs/ and docs/', async () => {
    const { stdout } = await execa('git', ['ls-files', '-z', 'runners', 'schemas', 'specs', 'docs'], { cwd: ROOT });
    const tracked = stdout
      .split('\0')
      .filter((f) => f && !/(^|\/)runners\/(.+\/)?tests\//.test(f) && fs.existsSync(path.join(ROOT, f)));
    expect(tracked.length).toBeGreaterThan(0);
    expect(tracked.filter((f) => !files.includes(f))).toEqual([]);
    // What the cell processes, the probe and bundles read at run time, named so a rename is noticed here.
    expect(files).toEqual(
      expect.arrayContaining([
        'runners/harness/driver.py',
        'runners/harness/contracts.json',
        'runners/harness/benchgrid_harness/wire.json',
        'runners/harness/benchgrid_harness/probe.py',
        'runners/torch/manifest.json',
        'schemas/spec.schema.json',
        'specs/resnet18_cpu.yaml',
        'specs/examples/models/mixer.py',
        'specs/runners/torchextractor/manifest.json',
        'docs/spec.md',
      ]),
    );
  });

  it('leaves out tests and Python caches even where a working tree has them (the `files` rules, on a planted tree)', async () => {
    const dir = tmpdir('benchgrid-pack-');
    fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    const shipping = [
      'bin/benchgrid.js',
      'dist/cli.js',
      'README.md',
      'schemas/spec.schema.json',
      'docs/spec.md',
      'runners/harness/driver.py',
      'runners/harness/benchgrid_harness/__init__.py',
      'runners/torch/benchgrid_torch/site_output.py',
      'specs/resnet18_cpu.yaml',
      'specs/runners/mine/mine_adapters/__init__.py',
    ];
    for (const f of [
      ...shipping,
      // the planted files none of which may ship
      'runners/harness/tests/test_x.py',
      'runners/torch/tests/test_y.py',
      'specs/runners/mine/tests/test_z.py',
      'runners/harness/benchgrid_harness/__pycache__/__init__.cpython-311.pyc',
      'runners/torch/stray.pyc',
      'specs/runners/mine/mine_adapters/__pycache__/__init__.cpython-312.pyc',
      'specs/examples/__pycache__/m.cpython-311.pyc',
      'test/a.test.ts',
      'bench/main.ts',
      '.ci/run',
      'src/cli.ts',
      'scripts/test.mjs',
      'reference/README.md',
      'results/x/results.json',
    ])
      write(dir, f, '\n');
    const planted = await packed(dir);
    expect(offending(planted)).toEqual([]);
    expect(planted.filter((f) => /^(reference|results)\//.test(f))).toEqual([]);
    // and every file beside them that the rules do ship
    expect(planted).toEqual(expect.arrayContaining(shipping));
  });

  it('installed (dist/ without src/ or tsx), the entry point runs dist/', async () => {
    const dir = plantedEntryPoint('benchgrid-installed-');
    const r = await execa(process.execPath, [path.join(dir, 'bin/benchgrid.js')], { reject: false });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('dist');
  });

  it('ships no tsx: it is a development dependency, which only a checkout with stale sources needs', () => {
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
    expect(Object.keys(pkg.devDependencies)).toContain('tsx');
  });

  it('a checkout whose dist/ is older than src/ and that has no tsx says what to run, and exits 2', async () => {
    const dir = plantedEntryPoint('benchgrid-stale-');
    write(dir, 'src/cli.ts', "console.log('src');\n");
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, 'dist/cli.js'), old, old);
    const r = await execa(process.execPath, [path.join(dir, 'bin/benchgrid.js')], { reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/dist\/ is missing or older than src\/, .*\nrun `npm ci`/);
  });
});
