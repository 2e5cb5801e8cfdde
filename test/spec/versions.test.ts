// The version axis: releases become cells in their own environments; reasons can name a range of releases.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/validate/load.ts';
import { compareVersions, satisfies } from '../../src/spec/version-range.ts';
import { pinRequirement, splitToolId } from '../../src/spec/versions.ts';
import { cli, FIXTURES, ROOT, tmpdir, write } from '../helpers.ts';

const file = path.join(FIXTURES, 'specs/versions.yaml');

describe('version axis', () => {
  it('expands each declared release into its own cells, in declared order', async () => {
    const { plan } = await loadSpec(file);
    expect(plan!.cells.map((c) => c.id)).toEqual([
      'A/single_module_output/hooks/resnet18',
      'A/single_module_output/tl_record@2.34.1/resnet18',
      'A/single_module_output/tl_record@2.35.4/resnet18',
      'A/single_module_output/tl_record@2.36.1/resnet18',
      'A/replacement_edit/hooks/resnet18',
      'A/replacement_edit/tl_record@2.34.1/resnet18',
      'A/replacement_edit/tl_record@2.35.4/resnet18',
      'A/replacement_edit/tl_record@2.36.1/resnet18',
    ]);
  });

  it('runs each release in an environment with that release pinned next to the other requirements', async () => {
    const { spec, plan } = await loadSpec(file);
    const env = (id: string) => plan!.cells.find((c) => c.id === id)!.environment;
    const older = spec!.environments[env('A/single_module_output/tl_record@2.34.1/resnet18')];
    expect(older).toMatchObject({
      id: 'main+torchlens-2.34.1',
      requirements: ['torch==2.14.1', 'torchlens==2.34.1'],
      layer: { base: 'main', requirements: ['torchlens==2.34.1'] },
    });
    // The release the base already pins needs no environment of its own.
    expect(env('A/single_module_output/tl_record@2.36.1/resnet18')).toBe('main');
    expect(spec!.tools['tl_record@2.35.4']).toMatchObject({
      version: '2.35.4',
      package: 'torchlens',
      adapter: 'tl_record',
    });
  });

  it('limits a reason to the releases in its version range', async () => {
    const { plan } = await loadSpec(file);
    const status = (v: string) =>
      plan!.cells.find((c) => c.id === `A/replacement_edit/tl_record@${v}/resnet18`)!.status;
    expect([status('2.34.1'), status('2.35.4'), status('2.36.1')]).toEqual(['unsupported', 'planned', 'planned']);
  });

  it('specs/versions_cpu.yaml is valid with no warning: a reason limited to releases is never stale', async () => {
    const { plan, diagnostics } = await loadSpec(path.join(ROOT, 'specs/versions_cpu.yaml'));
    expect(diagnostics).toEqual([]);
    const unsupported = plan!.cells.filter((c) => c.status === 'unsupported').map((c) => c.id);
    expect(unsupported).toEqual([
      'A/replacement_edit/tl_bind@2.33.0/resnet18',
      'A/replacement_edit/tl_bind@2.34.1/resnet18',
    ]);
    expect(
      plan!.cells.filter((c) => c.status === 'planned' && c.reference !== null).every((c) => c.reference === 'hooks'),
    ).toBe(true);
  });

  it('gives a page entry of a versioned tool one entry per release', async () => {
    const { spec } = await loadSpec(file);
    expect(spec!.page[0].rows[0].entries.map((e) => e.tool)).toEqual([
      'hooks',
      'tl_record@2.34.1',
      'tl_record@2.35.4',
      'tl_record@2.36.1',
    ]);
  });

  it('refuses a versioned reference tool and a version range that names no versioned tool', async () => {
    const dir = tmpdir();
    const text = fs
      .readFileSync(file, 'utf8')
      .replace('reference: hooks', 'reference: tl_record')
      .replace('tools: [tl_record]\n        contracts', 'tools: [hooks]\n        contracts');
    const bad = write(dir, 'bad.yaml', text.replace('../../../schemas', '../schemas'));
    const r = await cli(['validate', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+ .*the reference tool 'tl_record' declares versions/);
    expect(r.stderr).toMatch(/bad\.yaml:\d+:\d+ .*version range \(<2\.35\) but names no tool that declares versions/);
  });

  it('validate --check-index lists the releases the index has when a declared one is missing (pip, local index)', async () => {
    const dir = tmpdir();
    // A real pip, pointed at a local find-links directory instead of the network: file names are all it reads.
    for (const f of [
      'torchlens-2.34.1-py3-none-any.whl',
      'torchlens-2.36.1-py3-none-any.whl',
      'torchlens-2.35.4.tar.gz',
    ])
      write(dir, `index/${f}`, '');
    const spec = write(
      dir,
      'v.yaml',
      fs
        .readFileSync(file, 'utf8')
        .replace('2.35.4, 2.36.1]', '2.35.9, 2.36.1]')
        .replace('../../../schemas', '../schemas'),
    );
    const env = { PIP_NO_INDEX: '1', PIP_FIND_LINKS: path.join(dir, 'index') };
    const r = await cli(['validate', '--check-index', spec], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /v\.yaml:\d+:\d+ tools\.tl_record\.versions\[1\]: torchlens 2\.35\.9 is not on the package index; it has 2\.36\.1, 2\.35\.4, 2\.34\.1\./,
    );
    const ok = await cli(['validate', '--check-index', file], { env });
    expect(ok.code).toBe(0);
    // Without the option nothing is asked: the same spec is valid offline.
    expect((await cli(['validate', spec], { env: { PIP_INDEX_URL: 'http://127.0.0.1:9/' } })).code).toBe(0);
  });

  it('diff shows a release swapped in versions as cells, tools and environments added and removed', async () => {
    const dir = tmpdir();
    const text = fs.readFileSync(file, 'utf8').replace('../../../schemas', '../schemas');
    const old = write(dir, 'old.yaml', text);
    const neu = write(dir, 'new.yaml', text.replace('[2.34.1, 2.35.4, 2.36.1]', '[2.33.0, 2.35.4, 2.36.1]'));
    const r = await cli(['diff', old, neu]);
    expect(r.stdout).toMatch(/\+ A\/single_module_output\/tl_record@2\.33\.0\/resnet18  planned/);
    expect(r.stdout).toMatch(
      /\+ A\/replacement_edit\/tl_record@2\.33\.0\/resnet18  unsupported: releases before 2\.35/,
    );
    expect(r.stdout).toMatch(/- A\/single_module_output\/tl_record@2\.34\.1\/resnet18  planned/);
    expect(r.stdout).toMatch(/environment main\+torchlens-2\.33\.0 added/);
  });

  it('refuses versions on a tool without a declared environment or a package to pin', async () => {
    const dir = tmpdir();
    const text = fs
      .readFileSync(file, 'utf8')
      .replace('../../../schemas', '../schemas')
      .replace('environments:\n  main: { requirements: [torch==2.14.1, torchlens==2.36.1] }\n', '')
      .replace('  hooks: { label: forward hooks }', '  hooks: { label: forward hooks }\n  raw: { versions: ["1.0"] }');
    const r = await cli(['validate', write(dir, 'noenv.yaml', text)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /noenv\.yaml:\d+:\d+ tools\.tl_record\.versions: tool 'tl_record' declares versions, but its environment 'default' is not declared/,
    );
    expect(r.stderr).toMatch(
      /tools\.raw\.versions: tool 'raw' declares versions, but its adapter 'raw' names no library to pin\. Add `package: NAME`/,
    );
  });

  it('run --python refuses releases, which one interpreter cannot tell apart', async () => {
    const out = tmpdir();
    const python = (await execa('python3', ['-c', 'import sys; print(sys.executable)'])).stdout.trim();
    const r = await cli(['run', file, '--python', python, '--out', out, '--only', 'A/single_module_output/*/*']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--python runs every environment with one interpreter, so the environments layered over another \(main\+torchlens-2\.34\.1, main\+torchlens-2\.35\.4: the releases of a versioned tool, or environments declared with 'over'\) would all run what that interpreter has installed/,
    );
  });

  it('compares releases numerically and reads ranges the way pip does', () => {
    expect(compareVersions('2.35.4', '2.9.0')).toBeGreaterThan(0);
    expect(compareVersions('0.8.0rc1', '0.8.0')).toBeLessThan(0);
    expect(satisfies('2.34.1', '>=2.33,<2.35')).toBe(true);
    expect(satisfies('2.35.0', '>=2.33,<2.35')).toBe(false);
    expect(satisfies('2.35.0', '2.35')).toBe(true);
    expect(pinRequirement(['torch==2.14.1', 'Torch_Lens>=2'], 'torch-lens', '1.0')).toEqual([
      'torch==2.14.1',
      'torch-lens==1.0',
    ]);
    expect(splitToolId('tl_record@2.35.4')).toEqual({ tool: 'tl_record', version: '2.35.4' });
  });
});
